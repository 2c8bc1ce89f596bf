"""Figures nothing measured are reported as "not measured": the first-sentence latency (nothing streams)
and whether an offline (templated) reply references the scene. Written by the real DialogueManager and
StudyLogger, so the producer side is covered too."""

from __future__ import annotations

import json

from common.clock import Clock
from common.config import load_settings
from common.messages import UserInput
from common.store import DataLayout
from interaction.dialogue import DialogueManager
from interaction.study_logger import StudyLogger
from scripts.eval import report
from scripts.eval.bar_chart import Panel


class Outbox:
    def publish(self, spec, message) -> None:
        pass


def _study_session(tmp_path) -> DataLayout:
    settings = load_settings(environ={"NADINE_DATA_DIR": str(tmp_path), "NADINE_STUDY_LOG": "1"})
    layout = DataLayout(tmp_path)
    clock = Clock(layout.runtime_dir)
    study = StudyLogger(settings, layout, clock)
    dm = DialogueManager(settings, layout, clock, Outbox(), study=study, environ={})
    for i, text in enumerate(["Hello! My name is Maya.", "I just defended my PhD thesis today, I'm so happy!",
                              "Bye!"]):
        dm.process_input(UserInput(text=text, turn_id=f"t{i}"))
    study.close()
    return layout


def test_offline_turns_log_nulls_not_copies(tmp_path):
    layout = _study_session(tmp_path)
    (jsonl,) = layout.study_logs_dir.glob("*.jsonl")
    records = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert len(records) == 3
    for r in records:
        assert r["latency_s"] is not None and r["latency_first_sentence_s"] is None
        assert r["reply_references_scene"] is None  # offline rules wrote every reply
    log_line = jsonl.with_suffix(".log").read_text().splitlines()[0]
    assert "first=not measured" in log_line and "refs=not measured" in log_line


def test_report_says_not_measured_in_table_and_plot(tmp_path, capsys):
    layout = _study_session(tmp_path)
    assert report.main(["--logs", str(layout.study_logs_dir)]) == 0
    out = capsys.readouterr().out
    first = next(line for line in out.splitlines() if "latency_first_sentence_s" in line)
    assert "not measured" in first
    summary = json.loads(out.strip().splitlines()[-1])["conditions"]
    panels: list[Panel] = report.panels({c: s for c, s in summary.items()})
    latency = panels[0]
    assert "1st sent." in latency.title and "not measured" in latency.title
    assert not [g for g in latency.groups if g.startswith("1st sent.")]
    assert any(g.startswith("reply p") for g in latency.groups)
