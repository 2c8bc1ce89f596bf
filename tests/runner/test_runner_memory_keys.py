"""The runner with the memory expectation keys: records carry memory_intent and the recall report
when the suite gives them, same_user_as / new_user compare the sessions' user ids, clock_start sets
the shared clock. interaction and perception are a test double on the bus (as in test_runner.py)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from common import topics as t
from common.clock import Clock
from common.messages import RecalledMemory, RecallReport, StorageDecision, TurnResult, UserInput
from tests.runner.test_runner import FakeSuite, run, write

MAYA, STRANGER = "260302_0001", "260302_0002"
FACT = "my daughter's birthday is on 3 May"


class MemoryFake(FakeSuite):
    """Answers like a suite that reports intents and recall: the stranger session gets its own id."""

    def on_input(self, msg: UserInput) -> None:
        stranger = "Stranger" in msg.text
        if "remember that" in msg.text:
            intent, recall, reply = "remember", None, f"I'll remember that {FACT}."
        elif "birthday" in msg.text:
            memories = [] if stranger else [RecalledMemory(kind="explicit_memory", memory_id="e1", text=FACT)]
            outcome = "abstained" if stranger else "asserted"
            intent, recall = "recall", RecallReport(outcome=outcome, memories=memories)
            reply = "I don't know you yet." if stranger else "It is on 3 May."
        else:
            intent, recall, reply = "statement", None, "Hello!"
        self.interaction.publish(t.TURN_RESULT, TurnResult(
            turn_id=msg.turn_id, text=msg.text, reply=reply, user_id=STRANGER if stranger else MAYA,
            user_name="Maya", intent="continue_conversation", is_recall=recall is not None, recall=recall,
            memory_intent=intent, latency_s=0.01))
        self.perception.publish(t.STORAGE_DECISION, StorageDecision(
            user_id=MAYA, stored=False, memorability=0.1, threshold=0.5, reason="below threshold",
            turn_id=msg.turn_id))


@pytest.fixture
def fake(broker, root, tmp_path):
    suite = MemoryFake(broker, root, tmp_path / "data")
    yield suite
    suite.stop()


SCRIPT = f"""
clock_start: "2026-03-02T09:00:00"
sessions:
  - turns:
      - say: "Please remember that {FACT}."
        expect: {{memory_intent: remember, reply_lacks: ["don't remember"]}}
  - gap_hours: 24
    turns:
      - say: "Stranger here: when is the birthday?"
        expect: {{new_user: true, recall_outcome: [none, abstained], reply_lacks: ["3 May"]}}
  - gap_hours: 24
    turns:
      - say: "When is my girl's birthday?"
        expect: {{same_user_as: 1, recall_outcome: asserted, recalled_text: "birthday is on 3 May",
                  not_recalled_text: "the plumber comes on Thursday", reply_has: ["3 may"], memory_intent: [recall]}}
      - say: "Stranger again: when is the birthday?"
        expect: {{same_user_as: 1}}
"""


def test_memory_keys_through_the_runner(fake, broker, root, tmp_path):
    began = datetime.now()
    out = run(write(tmp_path, SCRIPT), broker, root, tmp_path)
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert out.returncode == 1, out.stderr[-3000:]  # only the last turn's same_user_as is unmet
    assert lines[-1] == {"turns": 4, "expectations": 12, "met": 11}
    assert [line["expect_ok"] for line in lines[:-1]] == [True, True, True, False]
    assert lines[0]["memory_intent"] == "remember" and "recall" not in lines[0]
    assert lines[2]["recall"]["outcome"] == "asserted" and lines[2]["recall"]["memories"][0]["text"] == FACT
    now = Clock(tmp_path / "data" / "runtime").now()
    start = datetime(2026, 3, 2, 9) + timedelta(hours=48)
    assert start <= now <= start + (datetime.now() - began) + timedelta(seconds=5)
