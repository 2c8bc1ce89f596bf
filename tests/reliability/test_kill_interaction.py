"""kill -9 of the real interaction process during the farewell's episodic save (it runs right after
the reply is spoken): Chroma stays readable and a session is saved whole or not at all."""

from __future__ import annotations

import random
import sqlite3
import time

import pytest

from common import topics as t
from common.messages import UserInput
from tests.interaction.dialogue_harness import Interaction
from tests.reliability.writers import episodic_memory

pytestmark = pytest.mark.slow


def test_kill_9_during_the_episodic_save(broker, tmp_path):
    rng = random.Random(11)
    uid = None
    for visit in range(3):
        nadine = Interaction(broker, tmp_path)
        try:
            uid = uid or nadine.make_user("Ines")
            nadine.detect(uid, "Ines")
            nadine.say(f"I went sailing on the lake on visit {visit}, it was wonderful!")
            nadine.bus.publish(t.USER_INPUT, UserInput(text="I have to go now, goodbye!", turn_id=f"bye{visit}"))
            nadine.rec[t.SPEAK].wait_for(lambda m: "Goodbye" in m.text, timeout=30)
            time.sleep(rng.uniform(0.0, 0.4))  # somewhere inside the ~0.5 s save
        finally:
            nadine.proc.kill9()
            nadine.bus.stop()
    con = sqlite3.connect(tmp_path / "data" / "memory" / "chroma" / "chroma.sqlite3")
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    con.close()
    memory = episodic_memory(str(tmp_path / "data"))
    episodes = memory.query(uid, "sailing", "episode", n=50)
    conversations = memory.query(uid, "sailing", "conversation", n=50)
    assert {m.session for m in episodes} == {m.session for m in conversations}  # never half a session
    # the next start reads everything that was committed
    nadine = Interaction(broker, tmp_path)
    try:
        nadine.detect(uid, "Ines")
        again = nadine.say("Do you remember what I told you last time?")
        assert again.user_id == uid
    finally:
        nadine.stop()
