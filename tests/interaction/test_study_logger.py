"""Study logging: one complete record per turn, written at the later of completion and audio onset,
or after the audio timeout when start_speak never comes."""

from __future__ import annotations

import json
import time

from interaction.study_logger import StudyLogger, reply_references_scene
from tests.interaction.memory_fixtures import PHD, layout_and_clock, make_settings

FIELDS = {
    "robot_text": "Congratulations again on defending your PhD thesis!", "intent": "continue_conversation",
    "language": "en-US", "user_id": "251008_0001", "user_name": "Maya", "user_emotion": "happy",
    "user_intensity": 0.6, "robot_emotion": "happy", "robot_intensity": 0.7,
    "visual": {"injected": True, "scene_id": "scene_20261101_140000_abcdef", "similarity": 0.41,
               "description": "A photo with a person (Maya, looking happy).", "user_message": PHD},
    "latency_s": 0.8, "latency_first_sentence_s": 0.5,
}
RECORD_KEYS = {
    "turn_id", "timestamp", "condition", "participant", "user_text", "robot_text", "intent", "language",
    "user_id", "user_name", "user_emotion", "user_intensity", "robot_emotion", "robot_intensity", "visual",
    "reply_references_scene", "latency_s", "latency_first_sentence_s", "full_latency_s", "completed",
    "audio_onset",
}


def _logger(tmp_path, *overrides):
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path, "interaction.study.enabled=true", "interaction.study.participant_id=P07",
                             "interaction.study.audio_timeout_s=0.3", *overrides)
    return StudyLogger(settings, layout, clock)


def _records(logger):
    if not logger.jsonl_path.exists():
        return []
    return [json.loads(line) for line in logger.jsonl_path.read_text().splitlines()]


def test_record_waits_for_audio_onset_and_measures_full_latency(tmp_path):
    logger = _logger(tmp_path)
    t0 = time.monotonic()
    logger.turn_started("t1", "Do you remember what I told you last time?", t_received=t0, t_speech_end=t0 - 0.4)
    logger.turn_completed("t1", FIELDS)
    assert _records(logger) == []  # graph done, audio not started yet
    logger.audio_onset(t0 + 1.0)
    (record,) = _records(logger)
    assert set(record) == RECORD_KEYS
    assert record["full_latency_s"] == 1.4 and record["audio_onset"] and record["completed"]
    assert record["visual"] == {"injected": True, "scene_id": FIELDS["visual"]["scene_id"], "similarity": 0.41,
                                "description": FIELDS["visual"]["description"]}
    assert record["reply_references_scene"] and record["latency_s"] == 0.8
    assert record["condition"] == "A" and record["participant"] == "P07"
    assert logger.jsonl_path.name.startswith("A_P07_") and logger.log_path.exists()
    assert "Congratulations" in (logger.by_user_dir / "251008_0001.log").read_text()
    logger.close()


def test_onset_before_completion_writes_on_completion(tmp_path):
    logger = _logger(tmp_path)
    t0 = time.monotonic()
    logger.turn_started("t1", "Hi!", t_received=t0)
    logger.audio_onset(t0 + 0.2)  # first sentence spoken while the graph still runs
    assert _records(logger) == []
    logger.turn_completed("t1", {**FIELDS, "visual": None})
    (record,) = _records(logger)
    assert record["full_latency_s"] == 0.2 and record["visual"]["injected"] is False
    assert record["reply_references_scene"] is False


def test_no_turn_is_lost_when_start_speak_never_comes(tmp_path):
    logger = _logger(tmp_path)
    t0 = time.monotonic()
    for i in range(3):
        logger.turn_started(f"t{i}", f"turn {i}", t_received=t0 + i)
        logger.turn_completed(f"t{i}", {**FIELDS, "robot_text": f"reply {i}"})
    deadline = time.monotonic() + 3

    def lines() -> int:
        return len(logger.log_path.read_text().splitlines()) if logger.log_path.exists() else 0

    # the record and the log line of a turn are two writes: under load the second may come later
    while (len(_records(logger)) < 3 or lines() < 3) and time.monotonic() < deadline:
        time.sleep(0.05)
    records = _records(logger)
    assert [r["turn_id"] for r in records] == ["t0", "t1", "t2"]
    assert all(set(r) == RECORD_KEYS and r["full_latency_s"] is None and not r["audio_onset"] for r in records)
    assert len(logger.log_path.read_text().splitlines()) == 3


def test_close_writes_turns_still_waiting(tmp_path):
    logger = _logger(tmp_path, "interaction.study.audio_timeout_s=60")
    logger.turn_started("t1", "Hello", t_received=time.monotonic())
    logger.turn_completed("t1", FIELDS)
    logger.turn_started("t2", "Goodbye", t_received=time.monotonic())  # never completed
    logger.close()
    records = _records(logger)
    assert [(r["turn_id"], r["completed"]) for r in records] == [("t1", True), ("t2", False)]


def test_condition_b_follows_visual_memory_and_unknown_users_go_to_unknown(tmp_path):
    logger = _logger(tmp_path, "common.enable_visual_memory=false", "interaction.study.participant_id=../x y")
    logger.turn_started("t1", "Hello", t_received=time.monotonic())
    logger.audio_onset(time.monotonic())
    logger.turn_completed("t1", {**FIELDS, "user_id": None, "user_name": "Unknown"})
    assert logger.jsonl_path.name.startswith("B_x_y_") and logger.jsonl_path.parent == tmp_path / "study_logs"
    assert (logger.by_user_dir / "unknown.log").exists()


def test_reply_references_scene_heuristic():
    scene = f"{PHD} A photo with a person (Maya, looking happy)."
    assert reply_references_scene("How does it feel to have defended your thesis?", scene)
    assert not reply_references_scene("Hello! How are you today?", scene)
    assert not reply_references_scene("Anything", "")
