"""The memory expectation keys (docs/conversation-script.md) on constructed TurnResults."""

import pytest
import yaml

from common.messages import RecalledMemory, RecallReport, RetrievedScene, TurnResult
from scripts.runner.expect import Observed, SeenUsers, check, reply_shows, texts_match
from scripts.runner.script import Expect, ScriptError, load_script

HOUSE = "I bought my first house by the sea last spring, I'm so happy!"
DOG = "We adopted a little dog from the animal shelter today!"
MAYA, STRANGER = "261130_0001", "261130_0002"
SEEN = SeenUsers({1: [MAYA]})


def result(reply="Hello.", outcome=None, memories=(), intent=None, user_id=MAYA, injected=None):
    recall = None if outcome is None else RecallReport(outcome=outcome, memories=[
        RecalledMemory(kind="moment", memory_id=f"m{i}", text=text, occurred_at="2026-11-30T10:00:00")
        for i, text in enumerate(memories)])
    retrieved = None if injected is None else RetrievedScene(
        scene_id="s", similarity=0.5, threshold=0.3, injected=True, user_message=injected)
    return TurnResult(text="q", reply=reply, user_id=user_id, user_name="Maya", intent="continue_conversation",
                      is_recall=outcome is not None, retrieved=retrieved, recall=recall, memory_intent=intent,
                      latency_s=0.01)


def judge(expect: dict, res: TurnResult, say="Do you remember my first boat?", seen=SEEN) -> dict[str, bool]:
    return check(Expect.model_validate(expect), res, [], None, seen, say)


def test_a_result_without_the_new_fields_meets_nothing_that_reads_them():
    expect = {"recall_outcome": ["abstained", "offered"], "not_recalled_text": HOUSE, "recalled_text": DOG,
              "memory_intent": "recall"}
    assert judge(expect, result()) == {k: False for k in expect}


def test_recall_outcome_accepts_one_value_or_a_list():
    assert judge({"recall_outcome": "abstained"}, result(outcome="abstained")) == {"recall_outcome": True}
    assert judge({"recall_outcome": ["abstained", "offered"]}, result(outcome="asserted")) == {"recall_outcome": False}


def test_recalled_text_must_be_asserted_or_offered_not_merely_considered():
    expect = {"recalled_text": DOG}
    assert judge(expect, result(outcome="asserted", memories=[HOUSE, DOG.upper().replace("!", "")]))["recalled_text"]
    assert judge(expect, result(outcome="offered", memories=[DOG]))["recalled_text"]
    assert not judge(expect, result(outcome="abstained", memories=[DOG]))["recalled_text"]
    assert not judge(expect, result(outcome="asserted", memories=[HOUSE]))["recalled_text"]


def test_a_turn_document_with_its_speaker_holds_the_text():
    assert texts_match("my daughter's birthday is on 3 May", "Maya: Please remember that my daughter's birthday is on 3 May.")
    assert not texts_match("my daughter's birthday is on 3 May", "birthday")  # too short to count


def test_not_recalled_text_fails_when_asserted_or_told_in_the_reply():
    expect = {"not_recalled_text": HOUSE}
    assert judge(expect, result(reply="I don't remember anything about a boat.", outcome="abstained"))["not_recalled_text"]
    assert not judge(expect, result(reply="You told me.", outcome="asserted", memories=[HOUSE]))["not_recalled_text"]
    told = "You bought your first house by the sea last spring!"
    assert not judge(expect, result(reply=told, outcome="none"))["not_recalled_text"]
    assert not judge(expect, result(reply="Yes!", outcome="abstained", injected=HOUSE))["not_recalled_text"]
    # offering is a question, not a claim
    offer = "Do you mean when you bought your first house by the sea last spring?"
    assert judge(expect, result(reply=offer, outcome="offered", memories=[HOUSE]))["not_recalled_text"]


def test_distinctive_content_ignores_the_questions_own_words():
    assert not reply_shows(HOUSE, "Do you remember my first house?", "Your first house? I don't remember.")
    assert reply_shows(HOUSE, "Do you remember my first boat?", "You bought a house by the sea last spring.")


def test_memory_intent_and_reply_keys():
    res = result(reply="I\u2019ll remember that your daughter's birthday is on 3 May.", intent="remember")
    got = judge({"memory_intent": "remember", "reply_has": ["3 May", "I'LL REMEMBER"],
                 "reply_lacks": ["don't remember"]}, res)
    assert got == {"memory_intent": True, "reply_has": True, "reply_lacks": True}
    got = judge({"memory_intent": ["statement"], "reply_has": "Oslo", "reply_lacks": ["3 may"]}, res)
    assert got == {"memory_intent": False, "reply_has": False, "reply_lacks": False}


def test_same_user_as_and_new_user():
    assert judge({"same_user_as": 1}, result(user_id=MAYA)) == {"same_user_as": True}
    assert judge({"same_user_as": 1}, result(user_id=STRANGER)) == {"same_user_as": False}
    assert judge({"same_user_as": 1}, result(user_id=MAYA), seen=SeenUsers()) == {"same_user_as": False}
    assert judge({"new_user": True}, result(user_id=STRANGER)) == {"new_user": True}
    assert judge({"new_user": True}, result(user_id=None)) == {"new_user": True}
    assert judge({"new_user": True}, result(user_id=MAYA)) == {"new_user": False}
    assert judge({"new_user": False}, result(user_id=MAYA)) == {"new_user": True}


def test_profile_lacks_a_closed_fact():
    expect = Expect.model_validate({"profile_lacks": {"hobbies": "tennis", "location": "Oslo"}})
    assert check(expect, result(), [], {"hobbies": ["chess"], "location": "Bergen"})["profile_lacks"]
    assert not check(expect, result(), [], {"hobbies": ["Tennis"], "location": "Bergen"})["profile_lacks"]
    assert not check(expect, result(), [], None)["profile_lacks"]


def test_no_result_meets_nothing():
    expect = Expect.model_validate({"reply_lacks": ["x"], "new_user": True})
    assert check(expect, None, [], None) == {"new_user": False, "reply_lacks": False}


def test_observed_from_a_record_equals_from_the_result():
    res = result(reply="You adopted a dog.", outcome="asserted", memories=[DOG], intent="recall")
    record = {"say": "q", "reply": res.reply, "user_id": MAYA, "memory_intent": "recall",
              "recall": res.recall.model_dump(mode="json"), "retrieved": None}
    assert Observed.from_record(record) == Observed.from_result("q", res)
    assert Observed.from_record(record | {"recall": {"outcome": "maybe"}}).recall is None


@pytest.mark.parametrize("expect,message", [
    ({"recall_outcome": "remembered"}, "recall_outcome"),
    ({"memory_intent": []}, "memory_intent"),
    ({"same_user_as": 0}, "same_user_as"),
    ({"reply_has": "x", "reply_hass": "y"}, "unknown key"),
])
def test_bad_memory_keys_fail_loudly(tmp_path, expect, message):
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({"sessions": [{"turns": [{"say": "hi", "expect": expect}]}]}))
    with pytest.raises(ScriptError, match=message):
        load_script(path)


def test_same_user_as_must_name_an_earlier_session(tmp_path):
    path = tmp_path / "later.yaml"
    path.write_text(yaml.safe_dump({"sessions": [{"turns": [{"say": "hi", "expect": {"same_user_as": 1}}]}]}))
    with pytest.raises(ScriptError, match="earlier session"):
        load_script(path)


def test_memories_counts_each_kind_the_inventory_lists():
    from scripts.runner.expect import memory_counts

    person = {"explicit_memories": [{"id": "e1"}, {"id": "e2"}],
              "moments": [{"scene_type": "moment"}, {"scene_type": None}, {"scene_type": "first_meeting"}]}
    assert memory_counts(person) == {"explicit": 2, "moment": 2, "first_meeting": 1, "observation": 0}
    counts = memory_counts(person)
    assert check(Expect.model_validate({"memories": {"explicit": 2, "first_meeting": 1}}), result(), [], None,
                 SEEN, "x", counts) == {"memories": True}
    # a memory too many (a refused forget that deleted nothing is met; one that was deleted is not)
    assert check(Expect.model_validate({"memories": {"moment": 1}}), result(), [], None, SEEN, "x", counts) == {
        "memories": False}
    assert check(Expect.model_validate({"memories": {"moment": 2}}), result(), [], None, SEEN, "x", None) == {
        "memories": False}


@pytest.mark.parametrize("bad", [{"memories": {"explicit": -1}}, {"memories": {"episode": 1}}])
def test_memories_refuses_unknown_kinds_and_negative_counts(bad):
    with pytest.raises(ValueError):
        Expect.model_validate(bad)
