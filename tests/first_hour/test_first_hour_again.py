"""The first hour, again: perception knows at once that there is no camera view, the first turn (name and
news in one sentence) is a text-only moment for the person it names, what a camera is goes on the bus,
the notes under a reply tell one account of the turn, problems are said once on one line, and the
smaller items (empty lines, lock files, unknown faces, memory show, timestamps, turn counts)."""

from __future__ import annotations

import io
import json
import logging
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import pytest

from common import topics as t
from common.clock import Clock
from common.config import ConfigError, load_settings
from common.config.perception_settings import SelectiveMemorySettings
from common.logs import problems_handler
from common.messages import (
    CameraStatus,
    MemoryAction,
    RecalledMemory,
    RecallReport,
    RetrievedScene,
    SceneStored,
    StorageDecision,
    TurnResult,
    UserInput,
)
from common.store import DataLayout, ProfileStore, SceneStore
from common.turn_notes import turn_notes
from interaction.agents.episode import offline_summary
from interaction.chat import circuit_line
from interaction.dialogue import DialogueManager
from interaction.memory.contracts import TranscriptTurn
from interaction.memory.inventory import when
from perception.announcer import Announcer
from perception.selective_memory.module import NoVisualMemory, SelectiveMemory
from perception.selective_memory.recorder import SceneRecorder
from perception.view import View
from tests.interaction.test_dialogue_inprocess import Outbox
from tests.perception.doubles import RecordingBus

NEWS = "Hi, I'm Lena and I just got engaged, I'm so happy!"
NO_CAMERA = View(None, camera_on=False)


def _memory(tmp_path: Path) -> tuple[RecordingBus, SceneStore, SelectiveMemory]:
    layout = DataLayout(tmp_path)
    bus = RecordingBus()
    scenes = SceneStore(layout)
    recorder = SceneRecorder(scenes, bus, Clock(None), encoder=None, captioner=None)
    return bus, scenes, SelectiveMemory(SelectiveMemorySettings(decision_wait_s=5.0), recorder, scenes, bus)


def _turn(**fields) -> TurnResult:
    return TurnResult(**{"turn_id": "t1", "text": "x", "reply": "y", "intent": "continue_conversation",
                         "is_recall": False, "latency_s": 0.1, **fields})


# --- item 1: chat without a camera ------------------------------------------------------------------


def test_the_first_turn_names_the_person_its_text_only_moment_is_kept_for(tmp_path):
    """The affect of a self-introduction is published once the profile update knows who spoke."""
    settings = load_settings(environ={"NADINE_DATA_DIR": str(tmp_path)})
    layout = DataLayout(tmp_path)
    out = Outbox()
    dm = DialogueManager(settings, layout, Clock(layout.runtime_dir), out, environ={})
    turn = dm.process_input(UserInput(text=NEWS, turn_id="first"))
    (affect,) = out.of(t.AFFECT_STATE)
    assert turn.user_name == "Lena" and affect.user_id == turn.user_id and affect.user_name == "Lena"
    assert not affect.suppress_storage and affect.user_intensity >= 0.5

    # perception, with no camera, decides it on the very next frame: no decision_wait_s
    bus, scenes, memory = _memory(tmp_path)
    memory.on_affect(affect, 100.0, None)
    memory.on_frame(NO_CAMERA, 100.0)
    (decision,) = bus.of(t.STORAGE_DECISION)
    assert decision.stored and decision.user_id == turn.user_id
    (meta,) = scenes.list(turn.user_id)
    assert meta.text_only and meta.user_message == NEWS


def test_without_a_camera_nobody_known_is_decided_at_once_and_without_numbers(tmp_path):
    bus, _, memory = _memory(tmp_path)
    from common.messages import AffectState

    memory.on_affect(AffectState(label="joy", arousal=0.5, intensity=0.9, turn_id="anon"), 0.0, None)
    memory.on_frame(View(None), 1.0)  # a camera that sees nobody: the person may still come into view
    assert not bus.of(t.STORAGE_DECISION)
    memory.on_frame(NO_CAMERA, 1.1)
    (decision,) = bus.of(t.STORAGE_DECISION)
    assert not decision.stored and decision.memorability is None and decision.threshold is None
    assert decision.reason == "no camera view, and nobody known by name yet"
    assert b"memorability" not in decision.encode()


# --- item 3: one account of each turn --------------------------------------------------------------


def _kept_turn_notes(memorability: float, reason: str) -> list[str]:
    """The notes of a turn whose request to remember was kept, with no moment of its own."""
    result = _turn(memory_intent="remember", memory_action=MemoryAction(
        outcome="kept", kind="explicit_memory", text="my passport expires in March"))
    return turn_notes(result, StorageDecision(stored=False, memorability=memorability, threshold=0.5,
                                              turn_id="t1", reason=reason))


def test_an_explicit_memory_turn_never_reads_below_threshold():
    notes = _kept_turn_notes(0.1, "below threshold: user intensity 0.10 (neutral) < threshold 0.50")
    assert notes[0] == '[remembered] explicit memory kept: "my passport expires in March"'
    assert notes[1] == "[no moment of its own] memorability 0.10 < 0.50"
    assert not any("below threshold" in n or "[not stored]" in n for n in notes)


def test_a_request_to_remember_that_read_above_the_line_says_why_it_is_no_moment():
    """Read at 0.57 against 0.50 but suppressed as a request to remember: the note says so, never
    "0.57 < 0.50"."""
    notes = _kept_turn_notes(0.57, "suppressed (a request to remember)")
    assert notes[1] == "[no moment of its own] suppressed (a request to remember)"


def test_a_first_meeting_scene_is_named_and_the_moment_line_does_not_contradict_it():
    first = SceneStored(user_id="u", user_name="Lena", memorability=1.0, emotion_label="neutral", intensity=0.0,
                        description="", scene_type="first_meeting", scene_id="scene_1", image_path="/x.jpg",
                        reason="first face registration", turn_id="t1")
    below = StorageDecision(stored=False, memorability=0.2, threshold=0.5, turn_id="t1", reason="below threshold: ...")
    notes = turn_notes(_turn(), below, [first])
    assert notes == ["[stored] scene scene_1 (first meeting): first face registration",
                     "[no moment of its own] memorability 0.20 < 0.50"]


def test_forget_turns_say_what_happened_not_recall_or_closing():
    asked = _turn(memory_intent="forget_one", memory_action=MemoryAction(
        outcome="forget_asked", kind="moment", text="my dog died", p_told=0.93))
    suppressed = StorageDecision(stored=False, memorability=0.8, threshold=0.5, turn_id="t1",
                                 reason="suppressed (a request to forget); would have stored: ...")
    notes = turn_notes(asked, suppressed)
    assert notes[0] == '[forget] asked for a yes before forgetting the moment "my dog died" (p_told 0.930)'
    just_said = _turn(memory_intent="forget_one", memory_action=MemoryAction(
        outcome="forget_asked", kind="this_session", text="my PIN is 4410", p_told=0.8))
    assert turn_notes(just_said, suppressed)[0].startswith(
        '[forget] asked for a yes before forgetting the thing said in this conversation "my PIN is 4410"')
    assert "recall or closing" not in " ".join(notes)
    done = turn_notes(_turn(intent="forget_one_confirmed"), suppressed)
    assert done[0] == "[forgotten] that memory, everywhere it was held"
    refused = turn_notes(_turn(intent="forget_one_failed"), suppressed)
    assert refused[0].startswith("[forget] failed")


def test_recall_notes_give_the_deciding_score_and_never_a_zero_threshold():
    memory = RecalledMemory(kind="moment", memory_id="scene_x", text="I got engaged",
                            channels={"dense": 0.2, "p_told": 0.15})
    chosen = RetrievedScene(scene_id="scene_x", similarity=0.2, threshold=0.0, injected=True,
                            user_message="I got engaged", scene_type="moment", selected_by="recall")
    # a question that names no topic: what was told then is asserted, not by a probability
    memorable = RecallReport(outcome="asserted", memories=[memory], decided_by="memorable")
    notes = turn_notes(_turn(is_recall=True, recall=memorable, retrieved=chosen), None)
    text = "\n".join(notes)
    assert notes[0] == '[recalled] moment scene_x, chosen by the recall decision: "I got engaged"'
    assert "names no topic" in notes[1] and "0.15" not in text and "0.00" not in text
    told = RecallReport(outcome="asserted", memories=[memory], decided_by="probability", p_told=0.9981,
                        assert_above=0.99583, abstain_below=0.881218)
    assert turn_notes(_turn(recall=told), None)[0] == "[recall] asserted: best p_told 0.998 >= 0.996"
    asked = told.model_copy(update={"outcome": "offered", "p_told": 0.93})
    assert turn_notes(_turn(recall=asked), None)[0] == "[recall] asked about: best p_told 0.930 between 0.881 and 0.996"
    none = told.model_copy(update={"outcome": "abstained", "p_told": 0.41, "memories": []})
    assert turn_notes(_turn(recall=none), None)[0] == "[recall] abstained: best p_told 0.410 < 0.881"


def test_condition_b_says_visual_memory_is_off_without_numbers(tmp_path):
    bus = RecordingBus()
    from common.messages import AffectState

    NoVisualMemory(bus).on_affect(AffectState(label="joy", arousal=0.5, intensity=0.9, turn_id="t1"), 0.0, None)
    (decision,) = bus.of(t.STORAGE_DECISION)
    assert decision.memorability is None and decision.threshold is None
    assert turn_notes(_turn(), decision) == ["[not stored] visual memory disabled"]


# --- item 2 and 4: the camera on the bus, problems on the console -------------------------------


def test_perception_publishes_its_camera_status_when_it_changes():
    from perception.pipeline import Perception

    class Source:
        description = "missing.mp4"

    class FakeCamera:
        source, ok, error = Source(), False, "video file missing.mp4 does not exist"

    bus = RecordingBus()
    shell = Perception.__new__(Perception)  # only the status publisher is exercised
    shell.bus, shell._camera_status = bus, None
    camera = FakeCamera()
    shell.publish_camera(camera)
    shell.publish_camera(camera)
    camera.ok, camera.error = True, None
    shell.publish_camera(camera)
    assert bus.of(t.CAMERA_STATUS) == [
        CameraStatus(source="missing.mp4", ok=False, error="video file missing.mp4 does not exist"),
        CameraStatus(source="missing.mp4", ok=True)]
    assert t.CAMERA_STATUS.retain and t.Topics("nadine")(t.CAMERA_STATUS) == "nadine/status/perception/camera"
    # old clients reading status/+ get only online/offline strings: the camera is one level deeper
    assert t.Topics("nadine").spec_for("nadine/status/perception/camera") is t.CAMERA_STATUS


def test_each_problem_reaches_the_terminal_once_on_one_line():
    stream = io.StringIO()
    log = logging.getLogger("nadine.test.problems")
    log.propagate = False
    handler = problems_handler("perception", stream)
    log.addHandler(handler)
    try:
        for _ in range(3):
            log.error("camera %s unavailable: %s", "missing.mp4", "does not exist")
        log.warning("a warning stays in the log file")
        try:
            raise RuntimeError("boom\nsecond line")
        except RuntimeError:
            log.exception("model package %s missing", "dlib")
    finally:
        log.removeHandler(handler)
    assert stream.getvalue().splitlines() == [
        "[nadine] perception: camera missing.mp4 unavailable: does not exist",
        "[nadine] perception: model package dlib missing"]


def test_no_broker_host_is_tried_unless_configured(tmp_path):
    settings = load_settings(environ={"NADINE_DATA_DIR": str(tmp_path)})
    assert settings.common.mqtt.fallback_host is None


# --- item 5: turn budgets from the environment, the circuit said once ---------------------------


def test_the_turn_budget_is_set_from_the_environment_and_validated(tmp_path):
    env = {"NADINE_DATA_DIR": str(tmp_path), "NADINE_LLM_BUDGET_UNDERSTANDING_S": "60",
           "NADINE_LLM_BUDGET_RESPONSE_S": "45.5"}
    budget = load_settings(environ=env).interaction.llm.budget
    assert (budget.understanding_s, budget.response_s) == (60.0, 45.5)
    assert budget.shutdown_s == 60 + 45.5 + budget.episode_s + 10
    with pytest.raises(ConfigError, match="NADINE_LLM_BUDGET_RESPONSE_S"):
        load_settings(environ={**env, "NADINE_LLM_BUDGET_RESPONSE_S": "-1"})


def test_the_chat_says_once_when_replies_go_offline_and_once_when_they_come_back():
    url = "http://127.0.0.1:8080/v1"
    said = []
    before: set[str] = set()
    for now in [set(), {url}, {url}, {url}, set(), set()]:
        if (line := circuit_line(before, now)) is not None:
            said.append(line)
        before = now
    assert len(said) == 2 and "does not answer" in said[0] and "answers again" in said[1]


# --- item 6: the smaller items ------------------------------------------------------------------


def test_an_unknown_face_is_announced_without_a_confidence():
    ann = Announcer(5.0).seen(None, None, 92.13, 0.0)
    assert ann.message.user_name == "Unknown" and ann.message.confidence == 0.0
    known = Announcer(5.0).seen("261201_0001", "Lena", 96.4, 0.0)
    assert known.message.confidence == 96.4


def test_timestamps_read_as_local_minutes():
    assert when("2026-12-01T21:05:13.123456") == "Tue 1 Dec 2026, 21:05"
    aware = datetime(2026, 12, 1, 20, 5, tzinfo=UTC)
    assert when(aware.isoformat()) == when(aware.astimezone().replace(tzinfo=None).isoformat())
    assert when(None) == "" and when("not a time") == "not a time"


def test_the_episode_counts_every_reply_even_after_a_forget(tmp_path, monkeypatch):
    """A forgotten memory takes its turns out of the transcript (the summary must not quote it), which
    is why "listened and replied 11 times" was said after 13 turns: the count is the session's own."""
    from interaction.agents import episode
    from interaction.memory.local_services import LocalMemoryServices

    settings = load_settings(environ={"NADINE_DATA_DIR": str(tmp_path)})
    layout = DataLayout(tmp_path)
    clock = Clock(layout.runtime_dir)
    dm = DialogueManager(settings, layout, clock, Outbox(), LocalMemoryServices(settings, layout, clock, None),
                         environ={})
    summaries = []
    monkeypatch.setattr(episode, "offline_summary", lambda *a: summaries.append(offline_summary(*a)) or summaries[-1])
    said = [NEWS, "I work at a bakery.", "My dog Rex died last week.", "Forget what I told you about my dog.", "yes",
            "The weather is nice.", "Bye!"]
    turns = [dm.process_input(UserInput(text=x)) for x in said]
    assert turns[4].intent == "forget_one_confirmed" and turns[-1].intent == "end_conversation"
    (summary,) = summaries
    assert summary.action == "Nadine listened and replied 7 times." and "Rex" not in summary.observation
    at = datetime(2026, 12, 1, 12)
    assert offline_summary([TranscriptTurn("user", "hi", at), TranscriptTurn("nadine", "hello", at)], "L").action \
        == "Nadine listened and replied 1 times."


def test_study_logs_leave_no_lock_files_in_their_folder(tmp_path):
    from interaction.study_logger import StudyLogger

    folder = tmp_path / "study"
    folder.mkdir()
    StudyLogger._append(folder / "P01.txt", "one line")
    StudyLogger._append(folder / "P01.txt", "two lines")
    assert sorted(p.name for p in folder.iterdir()) == ["P01.txt"]
    assert (folder / "P01.txt").read_text().splitlines() == ["one line", "two lines"]


def test_memory_show_prints_text_for_people_and_json_on_request(tmp_path, capsys):
    from scripts import memory as memory_cli

    layout = DataLayout(tmp_path / "data")
    store = ProfileStore(layout)
    now = datetime(2026, 12, 1, 21, 5, 13, 123456)
    uid = store.mint_user_id("Lena", now)
    store.update(uid, {"user_name": "Lena", "location": "Lausanne"}, now)
    assert memory_cli.main(["--data-dir", str(layout.root), "show", uid]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"Lena ({uid}); profile last updated Tue 1 Dec 2026, 21:05")
    assert "Lausanne" in text and "{" not in text and ".123456" not in text
    assert memory_cli.main(["--data-dir", str(layout.root), "show", uid, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["user_name"] == "Lena"


def test_the_inspector_shows_the_camera_perception_reports_and_local_times(tmp_path):
    from starlette.testclient import TestClient

    from scripts.inspector.app import create_app

    settings = load_settings(environ={"NADINE_DATA_DIR": str(tmp_path)})
    app = create_app(settings, with_bus=False)
    inspector = app.state.inspector
    assert inspector.camera_line() == "camera: not known (the inspector runs without the bus)"
    connected = SimpleNamespace(stop=lambda: None)  # stands in for the bus: what perception reported is shown
    inspector.bus = connected
    assert inspector.camera_line() == "camera: not known (perception is not running)"
    inspector.perception_online = True
    inspector._on_camera(CameraStatus(source="missing.mp4", ok=False, error="does not exist"))
    assert inspector.camera_line().startswith("camera: off (missing.mp4: does not exist)")
    store = ProfileStore(DataLayout(tmp_path))
    now = datetime(2026, 12, 1, 21, 5, 13, 123456)
    uid = store.mint_user_id("Lena", now)
    store.update(uid, {"user_name": "Lena"}, now)
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:  # the address it answers as
        inspector.bus = connected
        assert "camera: off (missing.mp4" in client.get("/").text
        page = client.get(f"/people/{uid}").text
    assert "Tue 1 Dec 2026, 21:05" in page and "21:05:13.123456" not in page


def test_an_empty_time_window_is_not_reported_as_an_empty_memory():
    from common.messages import RecallReport
    from common.turn_notes import recall_note

    assert recall_note(RecallReport(outcome="abstained", window_expression="yesterday"))[0] == \
        "[recall] abstained in 'yesterday': nothing told in that time"
    assert recall_note(RecallReport(outcome="abstained"))[0] == "[recall] abstained: nothing stored to recall"
