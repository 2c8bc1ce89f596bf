"""Issue 16 item 6: the study report reads the study records and passes over, without a warning, the
files the project itself writes beside them (perception's FER samples, the readable .log files)."""

from __future__ import annotations

import json

import numpy as np

from common.clock import Clock
from common.config import load_settings
from common.store.layout import DataLayout
from interaction.study_logger import StudyLogger
from perception.fer_sampler import FerSampler
from scripts.eval import report


def test_report_is_quiet_about_the_projects_own_files(tmp_path, capsys):
    root = tmp_path / "data"
    layout = DataLayout(root)
    settings = load_settings(overrides=[f"common.data_dir={root}", "interaction.study.enabled=true"])
    logger = StudyLogger(settings, layout, Clock(None))
    logger.turn_started("t0", "hello", t_received=1.0)
    logger.turn_completed("t0", {"robot_text": "Hi!", "user_id": "261129_0001", "latency_s": 0.2})
    logger.close()
    sampler = FerSampler(layout.fer_samples_file, 0.0, Clock(None))
    assert sampler.on_frame("261129_0001", {"happy": 0.9, "neutral": 0.1}, np.zeros((4, 4, 3), np.uint8), 1.0)
    assert layout.fer_samples_file.is_file()
    assert report.main(["--logs", str(layout.study_logs_dir)]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert json.loads(captured.out.splitlines()[-1])["records"] == 1
