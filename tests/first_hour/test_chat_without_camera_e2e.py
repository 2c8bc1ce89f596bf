"""Issue 16 item 1, end to end: the whole suite with no camera, driven through `python -m
interaction.chat`. The person gives their name, tells emotional news: it is stored as a text-only
moment, the chat says so under the reply, and a later recall question brings it back. Questions about
Nadine get their own topic's answer, one the knowledge cannot answer "I don't know" (issue 16 item 3)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from common.store import DataLayout, ProfileStore, SceneStore
from common.supervisor.suite import Suite
from tests.support import PROJECT_ROOT, unique_root

pytestmark = pytest.mark.slow

NEWS = "I just got engaged to Sam, I'm so happy!"


def test_chat_without_a_camera_keeps_and_recalls_a_text_only_moment(tmp_path):
    suite = Suite(tmp_path / "data", tmp_path / "logs", ["perception.selective_memory.decision_wait_s=1.0"],
                  env={"NADINE_CAMERA": str(tmp_path / "no-camera")}, topic_root=unique_root())
    suite.start()
    try:
        env = suite.child_env()
        lines = ["My name is Maya.", NEWS, "Do you remember what I told you about Sam?", "Who built you?",
                 "How old are you?", "What is the capital of Peru?", ""]
        out = subprocess.run([sys.executable, "-m", "interaction.chat"], cwd=PROJECT_ROOT, env=env,
                             input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=240)
    finally:
        suite.stop()
    assert out.returncode == 0, out.stderr[-3000:]
    text = out.stdout
    assert text.splitlines()[0].startswith("camera: off") and "identity is by name only" in text.splitlines()[0]
    blocks = text.split("nadine> ")
    assert len(blocks) == 7  # the camera line, then one block per reply with memory's lines under it
    assert "[stored] scene" in blocks[2] and "[stored]" not in blocks[3]
    layout = DataLayout(tmp_path / "data")
    (uid,) = [u for u, name in ProfileStore(layout).user_ids().items() if name == "Maya"]
    moments = [m for m in SceneStore(layout).list(uid) if m.scene_type == "moment"]
    assert [m.user_message for m in moments] == [NEWS] and moments[0].text_only
    assert moments[0].scene_id in blocks[2]
    assert "[recalled] moment" in blocks[3] and NEWS in blocks[3]
    built, age, peru = blocks[4], blocks[5], blocks[6]
    assert "Magnenat Thalmann" in built and "2013" in age and "2013" not in built
    assert "don't know" in peru and "2013" not in peru and "Magnenat" not in peru
