from __future__ import annotations

from pathlib import Path

from scripts.runner.script import resolve_image
from scripts.shared_data import shared_data_dir, shared_path
from tests import support


def test_the_variable_moves_every_reader_at_call_time(tmp_path, monkeypatch):
    monkeypatch.setenv("NADINE_SHARED_DATA", str(tmp_path))
    assert shared_data_dir() == tmp_path.resolve()
    assert shared_path("faces", "a.jpg") == tmp_path.resolve() / "faces" / "a.jpg"
    assert resolve_image("shared:faces/a.jpg", Path("/elsewhere")) == tmp_path.resolve() / "faces" / "a.jpg"


def test_without_the_variable_it_is_shared_data_next_to_the_project(monkeypatch):
    monkeypatch.delenv("NADINE_SHARED_DATA", raising=False)
    assert shared_data_dir() == (support.PROJECT_ROOT.parent / "shared" / "data").resolve()
