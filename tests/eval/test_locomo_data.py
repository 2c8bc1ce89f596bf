from datetime import datetime

import pytest

from scripts.eval.locomo_data import load, parse_date, split_evidence


def test_date_format():
    assert parse_date("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56)
    assert parse_date("10:04 am on 19 January, 2024") == datetime(2024, 1, 19, 10, 4)


def test_evidence_quirks():
    assert split_evidence("D8:6; D9:17") == (["D8:6", "D9:17"], [])
    assert split_evidence("D:11:26") == (["D11:26"], [])
    assert split_evidence("D30:05") == (["D30:5"], [])
    assert split_evidence("D9:1 D4:4") == (["D9:1", "D4:4"], [])
    assert split_evidence("D") == ([], ["D"])


@pytest.mark.shared_data
def test_real_file_parses(shared_data):
    convs = load(shared_data / "locomo" / "locomo10.json")
    assert len(convs) == 10
    assert sum(len(c.sessions) for c in convs) == 272
    assert sum(len(s.turns) for c in convs for s in c.sessions) == 5882
    assert sum(len(c.questions) for c in convs) == 1986
    conv26 = next(c for c in convs if c.sample_id == "conv-26")
    assert len(conv26.sessions) == 19  # 35 date keys, 19 sessions with dialogue
    for c in convs:
        whens = [s.when for s in c.sessions]
        assert whens == sorted(whens)
    unresolved = [u for c in convs for q in c.questions for u in q.unresolved]
    assert 0 < len(unresolved) <= 9
    assert sum(1 for c in convs for q in c.questions if q.sessions) >= 1980
    assert {q.category for c in convs for q in c.questions} == {1, 2, 3, 4, 5}
