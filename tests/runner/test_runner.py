"""The script runner's contract: JSON lines, expectations, exit codes 0 / 1 / 2.

perception and interaction are played by a test double on the bus (they are not the unit under
test here; tests/runner/test_demo.py runs the real ones). control is the real process, started by
the runner because nobody else is online as control.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from common import topics as t
from common.messages import RetrievedScene, SceneStored, StorageDecision, TurnResult, UserInput
from common.store import DataLayout
from common.store.atomic import atomic_write_json
from tests.support import PROJECT_ROOT, make_bus

TURN_KEYS = {"session", "turn", "say", "user_id", "user_name", "intent", "is_recall", "user_emotion", "stored",
             "retrieved", "reply", "latency_s", "expect_ok"}
USER = "261129_0001"
MOMENT = "I just defended my PhD thesis today, I'm so happy!"


class FakeSuite:
    """Answers USER_INPUT the way interaction + perception would, from a fixed playbook."""

    def __init__(self, broker, root: str, data_dir: Path) -> None:
        self.layout = DataLayout(data_dir)
        self.perception = make_bus("perception", broker, root)
        self.interaction = make_bus("interaction", broker, root)
        self.interaction.subscribe(t.USER_INPUT, self.on_input)
        self.inputs: list[UserInput] = []

    def on_input(self, msg: UserInput) -> None:
        self.inputs.append(msg)
        recall = "remember" in msg.text
        retrieved = RetrievedScene(scene_id="scene_20261129_120000_abcdef", similarity=0.61, threshold=0.2,
                                   injected=True, user_message=MOMENT) if recall else None
        if "My name" in msg.text:
            atomic_write_json(self.layout.user_info_file(USER), {"user_id": USER, "user_name": "Maya",
                                                                 "hobbies": ["climbing"]})
        self.interaction.publish(t.TURN_RESULT, TurnResult(
            turn_id=msg.turn_id, text=msg.text, reply=f"You said: {msg.text}", user_id=USER, user_name="Maya",
            intent=msg.intent or "continue_conversation", is_recall=recall, user_emotion=msg.user_emotion,
            retrieved=retrieved, latency_s=0.01))
        stored = msg.user_emotion is not None and msg.user_emotion.intensity >= 0.5
        scene_id = "scene_20261129_120000_abcdef" if stored else None
        if stored:
            self.perception.publish(t.SCENE_STORED, SceneStored(
                user_id=USER, user_name="Maya", memorability=0.9, emotion_label="happy", intensity=0.9,
                description="tags", user_message=msg.text, scene_type="moment", scene_id=scene_id,
                image_path="/x.jpg", reason="intensity 0.90 >= 0.50", turn_id=msg.turn_id))
        self.perception.publish(t.STORAGE_DECISION, StorageDecision(
            user_id=USER, stored=stored, memorability=0.9 if stored else 0.1, threshold=0.5,
            reason="stored" if stored else "below threshold", scene_id=scene_id, turn_id=msg.turn_id))

    def stop(self) -> None:
        self.interaction.stop()
        self.perception.stop()


@pytest.fixture
def fake(broker, root, tmp_path):
    suite = FakeSuite(broker, root, tmp_path / "data")
    yield suite
    suite.stop()


def run(script: Path, broker, root: str, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "NADINE_TOPIC_ROOT": root, "NADINE_LOG_DIR": str(tmp_path / "logs")}
    return subprocess.run(
        [sys.executable, "-m", "scripts.run_script", str(script), "--broker", f"{broker.host}:{broker.port}",
         "--data-dir", str(tmp_path / "data"), *extra],
        cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=120,
    )


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "script.yaml"
    path.write_text(text)
    return path


SCRIPT = f"""
name: runner-contract
sessions:
  - camera: []
    turns:
      - say: "Hello! My name is Maya."
        expect: {{user_name: Maya, profile: {{user_name: Maya, hobbies: climbing}}, stored: none}}
      - say: "{MOMENT}"
        user_emotion: {{label: happy, intensity: 0.9}}
        expect: {{stored: moment}}
  - camera: []
    gap_hours: 48
    turns:
      - say: "Do you remember what I told you last time?"
        expect: {{recall: true, scene_of: "{MOMENT}"}}
      - say: "What's the weather like?"
        intent: ask_question
        expect: {{scene_of: null}}
"""


def test_all_expectations_met_exit_0_and_exact_json(fake, broker, root, tmp_path):
    out = run(write(tmp_path, SCRIPT), broker, root, tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    turns, summary = lines[:-1], lines[-1]
    assert summary == {"turns": 4, "expectations": 7, "met": 7}
    assert all(set(turn) == TURN_KEYS for turn in turns)
    assert turns[1]["stored"] == {"scene_id": "scene_20261129_120000_abcdef", "scene_type": "moment",
                                  "memorability": 0.9}
    assert turns[1]["user_emotion"] == {"label": "happy", "intensity": 0.9}
    assert turns[2]["retrieved"]["user_message"] == MOMENT and turns[2]["session"] == 2
    assert turns[0]["stored"] is None and turns[0]["expect_ok"] is True
    assert [m.intent for m in fake.inputs] == [None, None, None, "ask_question"]
    clock = json.loads((tmp_path / "data" / "runtime" / "clock.json").read_text())
    assert clock["offset_s"] == pytest.approx(48 * 3600)


def test_unmet_expectation_exits_1(fake, broker, root, tmp_path):
    script = write(tmp_path, """
sessions:
  - turns:
      - say: "Hi there"
        expect: {user_name: Somebody Else, stored: moment}
      - say: "Hello! My name is Maya."
        expect: {user_name: Maya}
""")
    out = run(script, broker, root, tmp_path)
    assert out.returncode == 1, out.stderr[-3000:]
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert lines[0]["expect_ok"] is False and lines[1]["expect_ok"] is True
    assert lines[-1] == {"turns": 2, "expectations": 3, "met": 1}


def test_suite_that_cannot_run_exits_2(fake, broker, root, tmp_path):
    script = write(tmp_path, "sessions:\n  - turns:\n      - say: hi\n")
    # control refuses to start (serial driver without a port): the runner reports and exits 2
    out = run(script, broker, root, tmp_path, "--config-override", "control.driver.kind=serial")
    assert out.returncode == 2
    assert "control exited with code 2" in out.stderr and "serial robot driver needs a port" in out.stderr
    assert json.loads(out.stdout.splitlines()[-1]) == {"turns": 0, "expectations": 0, "met": 0}


@pytest.mark.parametrize("body, message", [
    ("sessions:\n  - turns:\n      - say: hi\n        expcet: {stored: moment}\n", "sessions.0.turns.0.expcet: unknown key"),
    ("sessions:\n  - camera: [nope.jpg]\n    turns:\n      - say: hi\n", "camera image(s) not found"),
    ("sessions: [\n", "not valid YAML"),
])
def test_bad_scripts_exit_2_naming_the_problem(body, message, broker, root, tmp_path):
    out = run(write(tmp_path, body), broker, root, tmp_path)
    assert out.returncode == 2 and message in out.stderr
    assert out.stdout == ""


def test_bad_override_and_missing_file_exit_2(broker, root, tmp_path):
    out = run(write(tmp_path, "sessions:\n  - turns:\n      - say: hi\n"), broker, root, tmp_path,
              "--config-override", "perception.camera.fps=-1")
    assert out.returncode == 2 and "perception.camera.fps" in out.stderr
    out = run(tmp_path / "missing.yaml", broker, root, tmp_path)
    assert out.returncode == 2 and "cannot read script" in out.stderr
