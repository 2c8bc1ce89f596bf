"""The study report on logs written by the real StudyLogger (so the format contract is tested too)."""

import json

import pytest

from common.clock import Clock
from common.config import load_settings
from common.store.layout import DataLayout
from interaction.study_logger import StudyLogger
from scripts.eval import report

SCENE = "I just defended my PhD thesis today, I'm so happy!"


def _write_session(root, condition, participant, latencies, injected_refs):
    settings = load_settings(overrides=[
        f"common.data_dir={root}", "interaction.study.enabled=true", f"interaction.study.condition={condition}",
        f"interaction.study.participant_id={participant}",
    ])
    logger = StudyLogger(settings, DataLayout(root), Clock(None))
    for i, latency in enumerate(latencies):
        injected, refers = injected_refs[i]
        logger.turn_started(f"t{i}", "Do you remember my defense?", t_received=100.0 + i)
        logger.turn_completed(f"t{i}", {
            "robot_text": "Of course, your thesis made you so happy!" if refers else "Tell me more.",
            "intent": "continue_conversation", "user_id": "261129_0001", "user_name": "Maya",
            "visual": {"injected": injected, "scene_id": "scene_20261129_120000_abcdef" if injected else None,
                       "similarity": 0.4, "description": "", "user_message": SCENE} if injected else None,
            "latency_s": latency, "latency_first_sentence_s": latency / 2,
        })
        logger.audio_onset(100.0 + i + latency + 0.25)
    logger.close()
    return logger.jsonl_path


def test_report_per_condition(tmp_path, capsys):
    root = tmp_path / "data"
    a = _write_session(root, "A", "P01", [0.5, 1.0, 1.5, 2.0], [(True, True), (True, False), (False, False),
                                                                 (True, True)])
    _write_session(root, "B", "P02", [0.4, 0.6], [(False, False), (False, False)])
    with a.open("a") as fh:
        fh.write("{not json\n")
    png = tmp_path / "out" / "report.png"
    assert report.main(["--logs", str(root / "study_logs"), "--png", str(png)]) == 0
    captured = capsys.readouterr()
    assert "skipped" in captured.err
    summary = json.loads(captured.out.strip().splitlines()[-1])
    cond_a, cond_b = summary["conditions"]["A"], summary["conditions"]["B"]
    assert cond_a["turns"] == 4 and cond_b["turns"] == 2
    assert cond_a["scene_injection_rate"] == pytest.approx(0.75)
    assert cond_a["reply_references_scene_rate"] == pytest.approx(2 / 3)
    assert cond_b["scene_injection_rate"] == 0 and cond_b["reply_references_scene_rate"] is None
    assert cond_a["latency"]["latency_s"]["p50"] == pytest.approx(1.25)
    assert cond_a["latency"]["full_latency_s"]["p50"] == pytest.approx(1.5)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_refuses_empty_folder(tmp_path, capsys):
    assert report.main(["--logs", str(tmp_path)]) == 2
    assert "no study-log records" in capsys.readouterr().err


def test_other_jsonl_files_are_not_study_logs(tmp_path, capsys):
    (tmp_path / "runner.jsonl").write_text('{"session": 1, "turn": 1, "say": "hi"}\n')
    assert report.main(["--logs", str(tmp_path)]) == 2
    assert "not a study-log record" in capsys.readouterr().err
