"""The memory-key metrics (false recall, abstain / offer, window, intent, impostor leak, fact change)
on hand-made runner records; records without `recall` / `memory_intent` count as misses, not errors."""

import json

import yaml

from scripts.eval import memory
from scripts.eval.memory_metrics import score_script
from scripts.runner.script import Script

HOUSE = "I bought my first house by the sea last spring, I'm so happy!"
KITTENS = "I adopted two kittens from my neighbour, they are adorable, I'm delighted!"
FLAT = "I got the keys to my new flat, I'm so excited!"
MAYA, STRANGER = "261130_0001", "261130_0002"

UNTOLD = {"recall_outcome": ["abstained", "offered"], "not_recalled_text": HOUSE, "memory_intent": "recall"}
SCRIPT = Script.model_validate({"sessions": [
    {"camera": [], "turns": [{"say": HOUSE}]},
    {"camera": [], "gap_hours": 24, "turns": [
        {"say": "Do you remember my first boat?", "expect": UNTOLD},
        {"say": "And my first sailing trip?", "expect": UNTOLD},
        {"say": "And my first bicycle?", "expect": UNTOLD},
        {"say": "What did I tell you last week?", "expect": {
            "recall_outcome": ["asserted", "offered"], "recalled_text": KITTENS, "not_recalled_text": FLAT}},
    ]},
    {"camera": [], "turns": [
        {"say": "Hi, I'm Maya.", "expect": {"new_user": True}},
        {"say": "What did I tell you?", "expect": {"recall_outcome": ["none", "abstained"], "reply_lacks": ["house"]}},
    ]},
    {"camera": [], "turns": [
        {"say": "It's Maya.", "expect": {"same_user_as": 1}},
        {"say": "Where did I live before?", "expect": {"reply_has": ["Oslo"]}},
    ]},
]})


def report(outcome, *texts):
    return {"outcome": outcome, "memories": [
        {"kind": "moment", "memory_id": f"m{i}", "text": t, "occurred_at": "2026-11-29T10:00:00"}
        for i, t in enumerate(texts)]}


def rec(session, turn, user_id=MAYA, reply="", expect_ok=False, **kw):
    return {"session": session, "turn": turn, "say": "", "user_id": user_id, "reply": reply,
            "retrieved": None, "expect_ok": expect_ok} | kw


RECORDS = [
    rec(1, 1),
    rec(2, 1, reply="You told me you bought your first house!", recall=report("asserted", HOUSE),
        memory_intent="recall"),
    rec(2, 2, reply="I don't remember that.", recall=report("abstained"), memory_intent="recall", expect_ok=True),
    rec(2, 3, reply="Do you mean your first house by the sea?", recall=report("offered", HOUSE),
        memory_intent="statement"),
    rec(2, 4, reply="You adopted two kittens.", recall=report("asserted", KITTENS), expect_ok=True),
    rec(3, 1, user_id=MAYA, reply="Welcome back Maya!"),  # the impostor got Maya's id
    rec(3, 2, user_id=MAYA, reply="You told me about your house.", recall=report("asserted", HOUSE)),
    rec(4, 1, user_id=MAYA, expect_ok=True),
    rec(4, 2, reply="Before, you lived in Oslo.", expect_ok=True),
]


def ratios(tally):
    return {k: (r.num, r.den) for k, r in tally.ratios.items()}


def test_memory_metrics_on_fixed_outputs():
    m = ratios(score_script(SCRIPT, RECORDS, "fake", category="time_window"))
    assert m["false_recall_rate"] == (1, 3)
    assert m["abstain_rate"] == (1, 3)
    assert m["offer_rate"] == (1, 3)
    assert m["intent_accuracy"] == (2, 3)
    assert m["recalled_text_hit_rate"] == (1, 1)
    # every memory key met: 2.2 (abstained) and 2.4 (the right week); 2.1 asserted, 2.3 wrong intent
    assert m["window_accuracy"] == (2, 4)
    assert m["impostor_leak_rate"] == (1, 2)  # 3.2 asserted the house; 3.1 forbade nothing it said
    assert m["impostor_separated"] == (0, 1)
    assert m["same_person_recognised"] == (1, 1)
    assert m["recall_report_coverage"] == (5, 5)
    assert m["fact_change_accuracy"] == (0, 0)


def test_an_impostor_with_a_new_id_told_nothing_does_not_leak():
    records = RECORDS[:5] + [
        rec(3, 1, user_id=STRANGER, reply="Nice to meet you."),
        rec(3, 2, user_id=STRANGER, reply="I don't think we have talked before.", recall=report("abstained")),
        rec(4, 1, user_id=MAYA), rec(4, 2, reply="In Oslo.", expect_ok=True),
    ]
    m = ratios(score_script(SCRIPT, records, "fake"))
    assert m["impostor_separated"] == (1, 1)
    assert m["impostor_leak_rate"] == (0, 2)  # a greeting needs no recall report


def test_an_impostor_turn_asking_about_recall_without_a_report_counts_as_a_leak():
    records = RECORDS[:5] + [rec(3, 1, user_id=STRANGER, reply="Nice to meet you."),
                             rec(3, 2, user_id=STRANGER, reply="I don't remember that.")]
    assert ratios(score_script(SCRIPT, records, "fake"))["impostor_leak_rate"] == (1, 2)


def test_records_without_the_new_fields_count_as_misses_not_errors():
    bare = [{"session": s, "turn": t, "say": "", "user_id": MAYA, "reply": "Hello.", "retrieved": None,
             "expect_ok": False} for s, t in [(1, 1), (2, 1), (2, 2), (2, 3), (2, 4), (3, 1), (3, 2), (4, 1), (4, 2)]]
    tally = score_script(SCRIPT, bare, "today", category="changing_facts")
    m = ratios(tally)
    assert m["false_recall_rate"] == (3, 3)
    assert m["intent_accuracy"] == (0, 3)
    assert m["recalled_text_hit_rate"] == (0, 1)
    assert m["recall_report_coverage"] == (0, 5)
    assert m["fact_change_accuracy"] == (0, 8)
    assert m["window_accuracy"] == (0, 0)  # not a time-window script
    assert any("[false_recall_rate]" in f for f in tally.failures)


def test_a_closed_fact_still_held_is_listed_as_a_miss():
    script = Script.model_validate({"sessions": [{"turns": [
        {"say": "I don't play tennis any more.", "expect": {"profile_lacks": {"hobbies": "tennis"}}}]}]})
    tally = score_script(script, [rec(1, 1, expect_ok=False)], "x", category="changing_facts")
    assert ratios(tally)["fact_change_accuracy"] == (0, 1)
    assert any("[profile_lacks]" in f for f in tally.failures)


def test_missing_records_fail_every_memory_key():
    m = ratios(score_script(SCRIPT, [], "died"))
    assert m["false_recall_rate"] == (3, 3) and m["same_person_recognised"] == (0, 1)


def test_rescore_reads_the_records_a_run_kept(tmp_path, capsys):
    folder, logs = tmp_path / "scripts", tmp_path / "logs"
    folder.mkdir()
    (folder / "x_untold.yaml").write_text(yaml.safe_dump({"sessions": [
        {"turns": [{"say": HOUSE}]},
        {"turns": [{"say": "Do you remember my first boat?", "expect": UNTOLD}]}]}))
    (logs / "x_untold").mkdir(parents=True)
    (logs / "x_untold" / "records.jsonl").write_text("\n".join(json.dumps(r) for r in [
        rec(1, 1), rec(2, 1, reply="I don't remember that.", recall=report("abstained"), memory_intent="recall",
                       expect_ok=True), {"turns": 2, "expectations": 3, "met": 3}]))
    assert memory.main(["--scripts", str(folder), "--rescore", str(logs)]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["metrics"]["false_recall_rate"] == {"value": 0.0, "n": 1}
    assert summary["metrics"]["abstain_rate"] == {"value": 1.0, "n": 1}
    assert memory.main(["--scripts", str(folder), "--rescore", str(tmp_path / "nothing")]) == 2
