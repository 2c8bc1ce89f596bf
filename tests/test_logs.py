"""Process logs hold pseudonyms, never a person's id or name (common/logs.py)."""

from __future__ import annotations

import logging
import logging.handlers

import pytest

from common.logs import PseudonymFilter, log_pseudonym, pseudonym_key, setup_logging
from common.store import DataLayout, ProfileStore
from common.store.atomic import atomic_write_json

MAYA, BOB = "260101_0001", "lab-bob"


@pytest.fixture
def layout(tmp_path):
    layout = DataLayout(tmp_path / "data")
    atomic_write_json(layout.user_ids_file, {MAYA: "Maya", BOB: "Bob"})
    return layout


def _filter(layout: DataLayout) -> PseudonymFilter:
    return PseudonymFilter(layout, pseudonym_key(layout))


def test_ids_and_names_become_one_pseudonym_per_person(layout):
    f = _filter(layout)
    text = f.scrub(f"session with {MAYA} closed; MAYA said hi to Bob ({BOB}); Annual review, Bobby stays")
    maya, bob = f.pseudonym(MAYA), f.pseudonym(BOB)
    assert text == f"session with {maya} closed; {maya} said hi to {bob} ({bob}); Annual review, Bobby stays"
    assert maya != bob and maya.startswith("user-")


def test_every_process_of_one_data_root_writes_the_same_pseudonym(layout, tmp_path):
    assert _filter(layout).pseudonym(MAYA) == _filter(DataLayout(layout.root)).pseudonym(MAYA)
    assert log_pseudonym(layout, MAYA) == _filter(layout).pseudonym(MAYA)
    other = DataLayout(tmp_path / "other")
    assert _filter(other).pseudonym(MAYA) != _filter(layout).pseudonym(MAYA)  # keyed per data root


def test_new_and_forgotten_people_stay_hidden(layout):
    f = _filter(layout)
    assert f.scrub("hello 260202_0007") == f"hello {f.pseudonym('260202_0007')}"  # minted, not yet listed
    f.scrub("warm up")
    atomic_write_json(layout.user_ids_file, {BOB: "Bob", "lab-eve": "Eve"})  # Maya forgotten, Eve new
    text = f.scrub(f"late line about Maya ({MAYA}) and Eve (lab-eve)")
    assert "Maya" not in text and MAYA not in text and "Eve" not in text and "lab-eve" not in text


def test_files_and_stderr_get_no_id_or_name_even_in_tracebacks(layout, tmp_path, capsys):
    logs = tmp_path / "logs"
    setup_logging("tester", logs, "INFO", data_root=layout.root)
    try:
        log = logging.getLogger("nadine.tester")
        log.info("now talking with %s (%s)", "Maya", MAYA)
        try:
            raise ValueError(f"profile of {MAYA} (Maya) unreadable")
        except ValueError:
            log.exception("failed for %s", BOB)
        for handler in logging.getLogger().handlers:
            handler.flush()
        written = (logs / "tester.log").read_bytes() + capsys.readouterr().err.encode()
        assert logging.getLogger().handlers and all(
            any(isinstance(f, PseudonymFilter) for f in h.filters) for h in logging.getLogger().handlers)
        assert any(isinstance(h, logging.handlers.RotatingFileHandler) for h in logging.getLogger().handlers)
    finally:
        logging.getLogger().handlers.clear()
    for needle in (b"Maya", MAYA.encode(), b"Bob", BOB.encode()):
        assert needle not in written, needle
    assert log_pseudonym(layout, MAYA).encode() in written and b"ValueError" in written


def test_without_the_filter_the_same_lines_would_leak(layout, tmp_path):
    # the control: the needles really are in what the code logs
    logs = tmp_path / "plain"
    setup_logging("tester", logs, "INFO")
    try:
        logging.getLogger("nadine.tester").info("now talking with %s (%s)", "Maya", MAYA)
        for handler in logging.getLogger().handlers:
            handler.flush()
    finally:
        logging.getLogger().handlers.clear()
    assert b"Maya" in (logs / "tester.log").read_bytes()
    assert ProfileStore(layout).user_ids()[MAYA] == "Maya"
