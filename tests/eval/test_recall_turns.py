"""The per-turn recall figures of played scripts (scripts/eval/recall_turns.py): a told question counts
only with its own memory asserted, an untold one as asserted when anything was (or no report came),
an ordinary turn volunteers when a report showed something or a reply_lacks word was said."""

from __future__ import annotations

from scripts.eval.recall_turns import judge
from scripts.runner.script import Expect

MOMENT = "My son played his first violin solo at the school concert tonight, I was in tears!"


def _record(outcome: str | None, texts: list[str] = (), reply: str = "") -> dict:
    recall = None if outcome is None else {"outcome": outcome, "memories": [
        {"kind": "turn", "memory_id": f"m{i}", "text": t} for i, t in enumerate(texts)]}
    return {"say": "q", "reply": reply, "user_id": "u", "recall": recall, "memory_intent": "recall"}


def test_a_told_question_counts_only_with_its_own_memory_asserted():
    told = Expect(recall_outcome=["asserted"], recalled_text=MOMENT)
    assert judge(told, _record("asserted", [MOMENT])) == (
        "told", {"own memory asserted": True, "own memory asserted or offered": True})
    assert judge(told, _record("offered", [MOMENT]))[1] == {
        "own memory asserted": False, "own memory asserted or offered": True}
    assert judge(told, _record("asserted", ["Another thing entirely."]))[1]["own memory asserted"] is False


def test_an_untold_question_is_asserted_when_anything_was_or_no_report_came():
    untold = Expect(recall_outcome=["abstained", "offered"])
    assert judge(untold, _record("asserted", [MOMENT])) == ("untold", {"anything asserted": True})
    assert judge(untold, _record(None)) == ("untold", {"anything asserted": True})
    assert judge(untold, _record("offered", [MOMENT])) == ("untold", {"anything asserted": False})


def test_an_ordinary_turn_volunteers_by_a_shown_memory_or_a_word_it_must_lack():
    ordinary = Expect(recall=False, reply_lacks=["gallery"])
    assert judge(ordinary, _record(None, reply="Lovely!")) == ("ordinary", {"volunteers a memory": False})
    assert judge(ordinary, _record(None, reply="That reminds me of your gallery."))[1]["volunteers a memory"]
    assert judge(ordinary, _record("offered", [MOMENT], "Lovely!"))[1]["volunteers a memory"]
    assert judge(Expect(stored="moment"), _record(None)) is None
