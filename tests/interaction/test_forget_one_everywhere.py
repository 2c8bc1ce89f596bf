"""Forgetting one memory leaves nothing of it where Nadine could bring it back, in-process with the
real memory services (Chroma + MiniLM, scenes on disk): the explicit memory or the moment, the saved
sessions that quote it (summary made again, transcript and turn documents rewritten, Chroma's log
blanked), this conversation's turns, and the request and answer themselves. Nothing else goes: other
memories, other turns of the same sessions, a turn that only shares a few words with it."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from datetime import datetime, timedelta

import pytest

from common.messages import EmotionSignal, ForgetMemory, UserDetected, UserInput
from common.store import ProfileStore, SceneStore
from interaction.agents.episode import offline_summary
from interaction.dialogue import DialogueManager
from interaction.forget import forget_one_memory
from interaction.memory.chroma_store import make_client
from interaction.memory.contracts import TranscriptTurn
from interaction.memory.documents import list_documents
from interaction.memory.forgotten import Forgotten, forgotten_turns
from interaction.memory.local_services import LocalMemoryServices
from interaction.memory_requests import ForgetCandidate, forget
from tests.interaction.memory_fixtures import layout_and_clock, make_settings, write_scene
from tests.interaction.test_dialogue_inprocess import Outbox
from tests.reliability.traces import find_traces, text_needles
from tests.support import PROJECT_ROOT, stop_chroma

CAR = "Please remember that I left my car at the airport, level 3, row K."
BROTHER = "My brother Tobias got engaged to Lena last night! We are all thrilled."
KEPT = "My sister Ines started her new job as a pilot this week."
PARKED = text_needles("row K", "level 3")
ENGAGED = text_needles("Tobias", "engaged to Lena")


@pytest.fixture
def maya(tmp_path):
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    services = LocalMemoryServices(settings, layout, clock, bus=None)
    dm = DialogueManager(settings, layout, clock, Outbox(), services=services, environ={})
    store = ProfileStore(layout)
    uid = store.mint_user_id("Maya", clock.now())
    store.update(uid, {"user_name": "Maya"}, clock.now())
    return dm, services, uid


def visit(dm: DialogueManager, uid: str, *texts: str) -> list:
    """One session: Maya is recognised, says `texts`, and the episode is saved at the end."""
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    turns = [dm.process_input(UserInput(text=x, user_emotion=EmotionSignal(label="neutral", intensity=0.0)))
             for x in texts]
    dm.close_session("test")
    return turns


def documents(dm: DialogueManager, uid: str) -> dict[str, tuple[str, dict]]:
    client = make_client(dm.settings.interaction.chroma, dm.layout.chroma_dir)
    return {d.doc_id: (d.text, d.metadata) for d in list_documents(client, uid)}


def snapshot(root) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_forgotten_explicit_memory_leaves_no_word_in_any_saved_session(maya):
    dm, services, uid = maya
    visit(dm, uid, "Hello Nadine.", CAR, KEPT, "Please remember that my dog is called Bruno.", "Bye.")
    assert {label for _, label in find_traces(dm.layout.root, PARKED)} == set(PARKED)
    recalled = visit(dm, uid, "Hi.", "Do you remember where I left my car at the airport?", "Bye.")[1]
    assert "row K" in recalled.reply  # a later session now quotes it too, in Nadine's words

    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    asked = dm.process_input(UserInput(text="Forget what I told you about my car at the airport."))
    assert asked.reply.startswith("Do you want me to forget") and "row K" in asked.reply
    assert dm.process_input(UserInput(text="Yes, go ahead.")).intent == "forget_one_confirmed"
    dm.process_input(UserInput(text="Bye."))
    dm.close_session("test")

    assert find_traces(dm.layout.root, PARKED) == []  # Chroma's log and free pages included
    docs = documents(dm, uid)
    texts = [d for d, _ in docs.values()]
    assert [m.text for m in services.explicit.list(uid)] == ["my dog is called Bruno"]
    # the rest of the first session is still there, in its summary, transcript and turn documents
    assert sum(KEPT in d for d, m in docs.values() if m["kind"] in ("episode", "conversation", "turn")) >= 3
    assert any("airport" in d for d, m in docs.values() if m["kind"] == "turn")  # the later question stays
    # the request to forget and its answer are not things told: no summary quotes them
    assert not [d for d in texts if "Forget what I told you" in d or "go ahead" in d]
    later = visit(dm, uid, "Hi.", "Do you remember where I parked at the airport?", "Bye.")[1]
    assert "row K" not in later.reply and "level 3" not in later.reply
    assert later.recall is None or not [m for m in later.recall.memories if "row K" in m.text]


def test_a_statement_of_an_earlier_conversation_is_forgotten_by_the_topic_named(maya):
    """Neither a moment nor asked to be kept, a statement a later recall quotes ("what does my wife
    do?") can be taken back by its topic like those, and only after a yes."""
    dm, services, uid = maya
    bakery, needles = "My wife Ada runs a bakery near the old market.", text_needles("runs a bakery", "old market")
    visit(dm, uid, "Hello Nadine.", bakery, KEPT, "Bye.")
    assert "bakery" in visit(dm, uid, "Hi.", "What does my wife do?", "Bye.")[1].reply

    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    asked = dm.process_input(UserInput(text="Please forget what I told you about my wife's bakery."))
    assert asked.reply.startswith("Do you want me to forget that you told me") and "bakery" in asked.reply
    assert dm.process_input(UserInput(text="No, keep it.")).intent != "forget_one_confirmed"
    assert {label for _, label in find_traces(dm.layout.root, needles)} == set(needles)
    asked = dm.process_input(UserInput(text="Actually, do forget what I said about the bakery."))
    assert asked.reply.startswith("Do you want me to forget") and "bakery" in asked.reply
    assert dm.process_input(UserInput(text="Yes, please.")).intent == "forget_one_confirmed"
    dm.close_session("test")

    assert find_traces(dm.layout.root, needles) == []  # every saved session, Chroma's log included
    assert any(KEPT in d for d, m in documents(dm, uid).values() if m["kind"] == "turn")
    later = visit(dm, uid, "Hi.", "What does my wife do?", "Bye.")[1]
    assert "bakery" not in later.reply and "market" not in later.reply


def test_forgetting_what_was_asked_to_be_kept_takes_the_moment_of_that_turn_too(maya):
    """Felt news asked to be remembered is kept twice (the explicit memory and the moment of its
    turn): "Done, I have forgotten it" must leave neither."""
    dm, services, uid = maya
    asked_to_keep = "Please remember that I got engaged to Samir on the beach in Crete today!"
    said = visit(dm, uid, "Hello Nadine.", asked_to_keep, KEPT, "Bye.")
    write_scene(dm.layout, uid, asked_to_keep, when=dm.clock.now() - timedelta(minutes=3), seed=5,
                turn_id=said[1].turn_id)
    kept_scene = write_scene(dm.layout, uid, KEPT, when=dm.clock.now() - timedelta(minutes=2), seed=6)

    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    asked = dm.process_input(UserInput(text="Forget what I told you about my engagement."))
    assert asked.reply.startswith("Do you want me to forget") and "Samir" in asked.reply, asked.reply
    assert dm.process_input(UserInput(text="Yes.")).intent == "forget_one_confirmed"
    dm.close_session("test")

    assert find_traces(dm.layout.root, text_needles("engaged to Samir", "beach in Crete")) == []
    assert [m.scene_id for m in SceneStore(dm.layout).list(uid)] == [kept_scene.scene_id]
    assert services.explicit.list(uid) == []


def test_forgetting_the_moment_of_a_request_to_remember_takes_what_it_asked_to_keep_too(maya):
    dm, services, uid = maya
    asked_to_keep = "Please remember that my granddaughter Noor won the regional spelling bee today!"
    said = visit(dm, uid, "Hello Nadine.", asked_to_keep, KEPT, "Bye.")
    moment = write_scene(dm.layout, uid, asked_to_keep, when=dm.clock.now() - timedelta(minutes=3), seed=7,
                         turn_id=said[1].turn_id)
    assert [m.source_turn for m in services.explicit.list(uid)] == [said[1].turn_id]
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    candidate = ForgetCandidate(uid, "moment", moment.scene_id, asked_to_keep)
    assert forget(dm.deps, candidate, dm.session)
    assert services.explicit.list(uid) == []
    assert find_traces(dm.layout.root, text_needles("Noor won", "spelling bee")) == []


def test_a_forgotten_moment_goes_with_its_turns_and_the_summary_that_quoted_it(maya):
    dm, services, uid = maya
    said = visit(dm, uid, "Hello Nadine.", BROTHER, KEPT, "Bye.")
    write_scene(dm.layout, uid, BROTHER, when=dm.clock.now() - timedelta(minutes=5), seed=3, turn_id=said[1].turn_id)
    kept_scene = write_scene(dm.layout, uid, KEPT, when=dm.clock.now() - timedelta(minutes=4), seed=4)
    assert {label for _, label in find_traces(dm.layout.root, ENGAGED)} == set(ENGAGED)

    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    asked = dm.process_input(UserInput(text="Forget what I told you about my brother."))
    assert asked.reply.startswith("Do you want me to forget") and "Lena" in asked.reply
    assert dm.process_input(UserInput(text="Yes.")).intent == "forget_one_confirmed"
    dm.close_session("test")

    assert find_traces(dm.layout.root, ENGAGED) == []  # image, embedding, metadata and every document
    assert [m.scene_id for m in SceneStore(dm.layout).list(uid)] == [kept_scene.scene_id]
    docs = list(documents(dm, uid).values())
    session = next(m["session"] for _, m in docs if m["kind"] == "turn" and m["quote"] == KEPT)
    first = [(d, m) for d, m in docs if m.get("session") == session]
    assert sorted(m["kind"] for _, m in first) == ["conversation", "episode", "turn", "turn", "turn"]  # hello, sister, bye
    lines = next(d for d, m in first if m["kind"] == "conversation").splitlines()
    assert lines[0] == "User: Hello Nadine." and lines[1].startswith("Nadine: ") and lines[2] == f"User: {KEPT}"
    assert KEPT in next(d for d, m in first if m["kind"] == "episode")
    # the turn after the forgotten one is read with what now comes before it
    assert next(d for d, m in first if m["kind"] == "turn" and m["quote"] == KEPT) == f"{lines[1]}\n{KEPT}"
    assert sorted(m["turn_index"] for _, m in first if m["kind"] == "turn") == [0, 2, 4]
    later = visit(dm, uid, "Hi.", "What did I tell you about my brother?", "Bye.")[1]
    assert "Lena" not in later.reply and "engaged" not in later.reply


def test_forgetting_twice_in_one_session_reads_the_rewritten_session_right(maya):
    dm, services, uid = maya
    visit(dm, uid, "Hello Nadine.", "Please remember that my locker code is 7482619.", KEPT,
          "Please remember that my dentist appointment is on the ninth.", "Bye.")
    for request, word in (("Forget the thing about my locker.", "7482619"), ("Forget my dentist appointment.", "ninth")):
        dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
        assert word in dm.process_input(UserInput(text=request)).reply
        dm.process_input(UserInput(text="Yes."))
        dm.close_session("test")
    assert find_traces(dm.layout.root, text_needles("7482619", "dentist", "ninth")) == []
    conversation = next(d for d, m in documents(dm, uid).values() if m["kind"] == "conversation" and KEPT in d)
    assert [line.split(": ", 1)[0] for line in conversation.splitlines()] == ["User", "Nadine"] * 3


def test_a_forget_never_takes_a_turn_that_only_shares_words_with_it(maya):
    dm, services, uid = maya
    visit(dm, uid, "Hello Nadine.", "I won!", "Last year I won the lottery, a small one.",
          "My car is red and old.", "Bye.")
    scene = write_scene(dm.layout, uid, "I won!", when=dm.clock.now(), seed=5)
    forget_one_memory(dm.layout, ForgetMemory(user_id=uid, kind="moment", memory_id=scene.scene_id),
                      dm.clock.now(), services, offline_summary)
    quotes = sorted(m["quote"] for _, m in documents(dm, uid).values() if m["kind"] == "turn")
    assert quotes == ["Bye.", "Hello Nadine.", "Last year I won the lottery, a small one.", "My car is red and old."]


def test_a_no_keeps_every_byte(maya):
    dm, services, uid = maya
    visit(dm, uid, "Hello Nadine.", CAR, "Bye.")
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    before = snapshot(dm.layout.root)
    dm.process_input(UserInput(text="Forget what I told you about my car at the airport."))
    assert dm.process_input(UserInput(text="No, keep it.")).intent == "forget_one_cancelled"
    assert snapshot(dm.layout.root) == before
    assert len(services.explicit.list(uid)) == 1
    dm.close_session("test")  # nor is the request or its answer kept as something told
    assert not [d for d, _ in documents(dm, uid).values() if "keep it" in d or "Forget what" in d]


def test_the_cli_forgets_one_memory_through_the_same_cascade(maya):
    dm, services, uid = maya
    visit(dm, uid, "Hello Nadine.", CAR, KEPT, "Bye.")
    (memory,) = services.explicit.list(uid)
    stop_chroma()  # interaction is down: the CLI opens Chroma itself
    env = dict(os.environ, NADINE_DATA_DIR=str(dm.layout.root))
    out = subprocess.run([sys.executable, "-m", "scripts.memory", "forget-memory", uid, "explicit_memory",
                          memory.memory_id, "--no-bus"], cwd=PROJECT_ROOT, env=env, capture_output=True,
                         text=True, timeout=180)
    assert out.returncode == 0, out.stderr
    local = json.loads(out.stdout)["local"]
    assert local["text_memories"] == 1 and local["session_documents"] >= 3 and local["log_records"] >= 4
    assert find_traces(dm.layout.root, PARKED) == []
    docs = documents(dm, uid).values()
    assert sum(KEPT in d for d, _ in docs) >= 3 and not [m for _, m in docs if m["kind"] == "explicit_memory"]


def test_the_live_session_drops_a_forgotten_turn_with_the_reply_to_it():
    at = datetime(2026, 1, 1, 12)
    said = [TranscriptTurn("user", "Hello.", at, "t1"), TranscriptTurn("nadine", "Hi Maya!", at),
            TranscriptTurn("user", "Keep this in your head: Lea, my niece, turns six on Friday.", at, "t2"),
            TranscriptTurn("nadine", "I'll remember that your niece Lea turns six on Friday.", at),
            TranscriptTurn("user", "What a week.", at, "t3"), TranscriptTurn("nadine", "Tell me more!", at)]
    by_words = Forgotten.of(["my niece Lea turns six on Friday"])
    assert forgotten_turns(said, by_words) == {3}  # the model worded it: only Nadine's words hold it
    by_turn = Forgotten.of(["my niece Lea turns six on Friday"], ["t2"])
    assert forgotten_turns(said, by_turn) == {2, 3}


@pytest.mark.parametrize(("memory", "turn", "holds"), [
    ("I left my car at the airport, level 3, row K", CAR, True),
    ("I left my car at the airport, level 3, row K", "I left my car at home.", False),
    ("my daughter's birthday is on 3 May", "Nadine: I'll remember that your daughter’s birthday is on 3 May.", True),
    ("I won!", "I won!", True),
    ("I won!", "Last year I won the lottery.", False),
    ("dentist on Friday", "I have the dentist on Friday again.", True),
    ("42", "The answer is 42.", False),
])
def test_a_turn_holds_a_memory_only_with_all_its_words(memory, turn, holds):
    assert Forgotten.of([memory]).said_in(turn) is holds


def test_a_forgotten_episode_goes_with_its_transcript_and_turns(maya):
    dm, services, uid = maya
    visit(dm, uid, "Hello Nadine.", BROTHER, "Bye.")
    visit(dm, uid, "Hi.", KEPT, "Bye.")
    docs = documents(dm, uid)
    (episode,) = [i for i, (d, m) in docs.items() if m["kind"] == "episode" and "Tobias" in d]
    removed, _ = forget_one_memory(dm.layout, ForgetMemory(user_id=uid, kind="episode", memory_id=episode),
                                   dm.clock.now(), services, offline_summary)
    assert removed["text_memories"] == 5  # summary, transcript, and the turns hello, brother, bye
    assert find_traces(dm.layout.root, ENGAGED) == []
    assert sorted(m["kind"] for _, m in documents(dm, uid).values()) == ["conversation", "episode", "turn", "turn", "turn"]


def test_the_profile_facts_a_forgotten_turn_told_go_with_it(maya):
    dm, services, uid = maya
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    dm.process_input(UserInput(text="I live in Geneva."))
    dm.close_session("test")
    moved = "My brother Tobias and I moved to Lisbon last week! We are all thrilled."
    said = visit(dm, uid, "Hello Nadine.", moved, "Bye.")
    assert ProfileStore(dm.layout).load(uid).location == "Lisbon"
    write_scene(dm.layout, uid, moved, when=dm.clock.now(), seed=6, turn_id=said[1].turn_id)
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    assert "Lisbon" in dm.process_input(UserInput(text="Forget what I told you about my brother Tobias.")).reply
    dm.process_input(UserInput(text="Yes."))
    profile = ProfileStore(dm.layout).load(uid)
    assert profile.location == "Geneva"  # as if the forgotten words were never said
    assert not [r for r in profile.facts["location"] if r.value == "Lisbon"]
    assert "Lisbon" not in dm.process_input(UserInput(text="What do you know about me?")).reply
