"""The DialogueManager in-process (no bus): one AFFECT_STATE per turn
whatever path the turn takes, language changes reach the speak locale, a broken graph still answers,
the folders of a turn's profile writes are synced after its TurnResult, the writes themselves wait for
its reply and are on disk before its TurnResult or a USER_INFO."""

from __future__ import annotations

import json

import pytest

from common import topics as t
from common.clock import Clock
from common.config import load_settings
from common.messages import UserInput
from common.store import DataLayout, ProfileStore, atomic
from interaction.dialogue import SAFE_REPLY, DialogueManager


class Outbox:
    def __init__(self) -> None:
        self.sent: list[tuple[str, object]] = []

    def publish(self, spec, message) -> None:
        self.sent.append((spec.suffix, message))

    def of(self, spec) -> list:
        return [m for s, m in self.sent if s == spec.suffix]


def manager(tmp_path, **env) -> tuple[DialogueManager, Outbox]:
    settings = load_settings(environ={"NADINE_DATA_DIR": str(tmp_path), **env})
    layout = DataLayout(tmp_path)
    out = Outbox()
    return DialogueManager(settings, layout, Clock(layout.runtime_dir), out, environ={}), out


def test_the_pipeline_answers_with_one_affect_per_turn(tmp_path):
    dm, out = manager(tmp_path)
    texts = ["Hello! My name is Maya.", "I work at CERN.", "Who created you?", "Bye!"]
    turns = [dm.process_input(UserInput(text=x, turn_id=str(i))) for i, x in enumerate(texts)]
    assert [x.intent for x in turns] == ["update_user_info", "update_user_info", "continue_conversation",
                                         "end_conversation"]
    assert [a.turn_id for a in out.of(t.AFFECT_STATE)] == ["0", "1", "2", "3"]
    assert turns[1].user_name == "Maya" and "CERN" in turns[1].reply


def test_language_change_reaches_the_speak_locale_and_resets_on_farewell(tmp_path):
    dm, out = manager(tmp_path)
    dm.process_input(UserInput(text="Could you speak French please?"))
    assert out.of(t.SPEAK)[-1].locale == "fr-FR"
    assert (tmp_path / "runtime" / "runtime_language.json").read_text().count("fr-FR") == 1
    dm.process_input(UserInput(text="Goodbye!"))
    dm.process_input(UserInput(text="Hello"))
    assert out.of(t.SPEAK)[-1].locale == "en-US"


@pytest.mark.graph_fails
def test_a_failing_graph_still_answers_once(tmp_path, monkeypatch):
    dm, out = manager(tmp_path)

    def broken(state, on_reply):
        raise RuntimeError("node bug")

    monkeypatch.setattr(dm.graph, "run", broken)
    turn = dm.process_input(UserInput(text="hello?", turn_id="x"))
    assert turn.reply == SAFE_REPLY and [s.text for s in out.of(t.SPEAK)] == [SAFE_REPLY]
    assert len(out.of(t.AFFECT_STATE)) == 1


def test_study_logger_gets_one_record_per_turn_with_audio_onset(tmp_path):
    import json
    import time

    from interaction.study_logger import StudyLogger

    settings = load_settings(environ={"NADINE_DATA_DIR": str(tmp_path), "NADINE_STUDY_LOG": "1",
                                      "NADINE_PARTICIPANT_ID": "P01", "NADINE_STUDY_AUDIO_TIMEOUT": "5"})
    layout = DataLayout(tmp_path)
    clock = Clock(layout.runtime_dir)
    study = StudyLogger(settings, layout, clock)
    dm = DialogueManager(settings, layout, clock, Outbox(), study=study, environ={})
    dm.process_input(UserInput(text="Hello! My name is Maya.", turn_id="s1"))
    dm.on_audio_onset(time.monotonic())  # control's start_speak
    dm.process_input(UserInput(text="I'm so happy today!", turn_id="s2"))
    dm.shutdown()  # the second turn never got audio: written on close
    records = [json.loads(line) for line in study.jsonl_path.read_text().splitlines()]
    assert [r["turn_id"] for r in records] == ["s1", "s2"]
    first, second = records
    assert first["audio_onset"] and first["full_latency_s"] is not None and first["latency_s"] is not None
    assert first["user_name"] == "Maya" and first["intent"] == "update_user_info" and first["condition"] == "A"
    assert second["user_emotion"] == "happy" and not second["audio_onset"]


def test_recognition_catching_up_keeps_the_conversation(tmp_path):
    from common.messages import UserDetected
    from common.store import ProfileStore

    dm, out = manager(tmp_path)
    store = ProfileStore(dm.layout)
    uid = store.mint_user_id("Nora", dm.clock.now())
    store.update(uid, {"user_name": "Nora"}, dm.clock.now())
    dm.process_input(UserInput(text="Hi there!"))
    dm.process_input(UserInput(text="I live in Basel."))  # no name yet: kept until we know who this is
    dm.on_user_detected(UserDetected(user_name="Nora", confidence=88.0, user_id=uid))
    assert len(dm.session.transcript) == 4 and store.load(uid).location == "Basel"
    other = store.mint_user_id("Otto", dm.clock.now())
    dm.on_user_detected(UserDetected(user_name="Otto", confidence=88.0, user_id=other))
    assert dm.session.identity.user_id == other and dm.session.transcript == []


def test_offline_episode_summary_keeps_names_and_claims():
    from datetime import datetime

    from interaction.agents.episode import offline_summary
    from interaction.memory.contracts import TranscriptTurn

    at = datetime(2026, 11, 29, 10, 0)
    said = ["Hello! My name is Maya.", "My sister Lena just moved to Tokyo.",
            "I just defended my PhD thesis today, I'm so happy!", "I work at Trafigura."]
    transcript = [TranscriptTurn(role, text, at) for u in said for role, text in (("user", u), ("nadine", "Nice."))]
    episode = offline_summary(transcript, "Maya").as_text()
    for claim in ("Lena", "Tokyo", "PhD thesis", "Trafigura", "Maya"):
        assert claim in episode
    assert "happy" in episode and "Sunday 29 November 2026" in episode


def test_every_graph_node_does_work(tmp_path):
    # the reference's pass-through nodes (legacy orchestrator / appraisal, affective_update) are not built
    dm, _ = manager(tmp_path)
    nodes = set(dm.graph._graph.get_graph().nodes) - {"__start__", "__end__"}
    assert nodes == {"understand", "memory_update_agent", "memory_retrieve_agent", "memory_request_agent",
                     "search_agent", "vision_agent",
                     "knowledge_rag_agent", "response_agent"}


def test_a_turns_profile_writes_sync_their_folders_after_its_turn_result(tmp_path, monkeypatch):
    dm, out = manager(tmp_path)
    synced: list = []
    monkeypatch.setattr(atomic, "_fsync_dir", lambda folder: synced.append((folder, len(out.sent))))
    turn = dm.process_input(UserInput(text="Hello! My name is Maya.", turn_id="0"))
    sent = [s for s, _ in out.sent]
    assert sent.index(t.SPEAK.suffix) < sent.index(t.TURN_RESULT.suffix) == len(sent) - 1
    profile = ProfileStore(dm.layout).load(turn.user_id)
    assert profile is not None and profile.user_name == "Maya"
    # the profile's folder, the id index's and the id counter's, each once, after everything was published
    assert tmp_path / "memory" / "user_profiles" / turn.user_id in [f for f, _ in synced]
    assert len({f for f, _ in synced}) == len(synced) and all(n == len(sent) for _, n in synced)


def test_a_turns_profile_writes_wait_for_its_reply_and_are_on_disk_before_its_turn_result(tmp_path):
    dm, out = manager(tmp_path)
    uid = dm.process_input(UserInput(text="Hello! My name is Maya.", turn_id="0")).user_id
    info = dm.layout.user_info_file(uid)
    on_disk: dict[str, str] = {}
    publish = out.publish

    def noting(spec, message) -> None:
        if spec.suffix not in on_disk:
            on_disk[spec.suffix] = info.read_text()
        publish(spec, message)

    out.publish = noting
    turn = dm.process_input(UserInput(text="I work at CERN and I live in Paris.", turn_id="1"))
    assert "CERN" in turn.reply and "Paris" in turn.reply  # the reply read what the turn stored
    assert "CERN" not in on_disk[t.SPEAK.suffix]  # its writes waited until the reply was handed on
    assert "CERN" in on_disk[t.TURN_RESULT.suffix]  # and were on disk before the turn was reported
    profile = ProfileStore(dm.layout).load(uid)
    assert profile.current_company == "CERN" and profile.location == "Paris"
    assert not list(tmp_path.rglob(f"{atomic.TMP_PREFIX}*"))


def test_a_person_settled_on_a_confirmation_answer_is_on_disk_when_user_info_goes_out(tmp_path):
    dm, out = manager(tmp_path)
    dm.process_input(UserInput(text="Hello! My name is Maya.", turn_id="0"))
    dm.close_session("next person")
    asked = dm.process_input(UserInput(text="Hi, I'm Maja.", turn_id="1"))
    assert dm.session.confirmation is not None, asked.reply
    ids_when_told: list[dict] = []
    publish = out.publish

    def noting(spec, message) -> None:
        if spec.suffix == t.USER_INFO.suffix:
            ids_when_told.append(json.loads(dm.layout.user_ids_file.read_text()))
        publish(spec, message)

    out.publish = noting
    turn = dm.process_input(UserInput(text="No, I'm not.", turn_id="2"))  # someone else: a new person
    told = out.of(t.USER_INFO)[-1]
    assert told.user_id == turn.user_id and told.user_name == "Maja"
    assert ids_when_told and ids_when_told[-1].get(told.user_id) == "Maja"  # read off the disk, not this process


def test_curly_apostrophes_and_dropped_ones_read_as_typed_plainly(tmp_path):
    """A phone types "I’m" and "What’s"; a hurried person types "whats": each is read as its plain
    spelling (the name, the job, the question about them), never taken for a hobby."""
    dm, _ = manager(tmp_path)
    texts = ["Hi, I’m Oona.", "I’m a ferry captain in Turku.", "What’s my name?", "whats my job"]
    turns = [dm.process_input(UserInput(text=x, turn_id=str(i))) for i, x in enumerate(texts)]
    assert turns[0].user_name == "Oona" and "Oona" in turns[0].reply and "enjoy" not in turns[0].reply
    assert "ferry captain" in turns[1].reply
    assert turns[2].reply.startswith("You're Oona") and "ferry captain" in turns[3].reply, [x.reply for x in turns]
    profile = ProfileStore(DataLayout(tmp_path)).load(turns[0].user_id)
    assert profile is not None and "Turku" in profile.model_dump_json()


def test_a_question_about_work_or_home_not_told_yet_says_so(tmp_path):
    dm, _ = manager(tmp_path)
    texts = ["Hello, I'm Ines.", "Where do I work?", "where do i live"]
    turns = [dm.process_input(UserInput(text=x, turn_id=str(i))) for i, x in enumerate(texts)]
    assert turns[1].reply == "You haven't told me what you do or where you work yet."
    assert turns[2].reply == "You haven't told me where you live yet."
