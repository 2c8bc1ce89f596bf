""""my dentist appointment is tomorrow at 4:15", asked about the next morning, got "It was today at
4:15, earlier today": a clock said without "am" or "pm" may be the afternoon's, so it has gone by only
once that has too (tester63 s53)."""

from __future__ import annotations

from datetime import datetime

import pytest

from interaction.told_time import told_in

TOLD_ON = datetime(2026, 12, 7, 11, 0)
NEXT_MORNING, NEXT_EVENING = datetime(2026, 12, 8, 11, 16), datetime(2026, 12, 8, 16, 30)


@pytest.mark.parametrize(("said", "gone_by_morning", "gone_by_evening"), [
    ("my dentist appointment is tomorrow at 4:15", False, True),
    ("my dentist appointment is tomorrow at 4:15 pm", False, True),
    # a leading zero writes the day's 24 hours
    ("my dentist appointment is tomorrow at 09:00", True, True),
])
def test_a_clock_without_its_half_of_the_day_has_gone_by_once_its_afternoon_has(said, gone_by_morning, gone_by_evening):
    told = told_in(said, TOLD_ON)
    assert told is not None and told.at is not None, said
    assert told.passed(NEXT_MORNING) is gone_by_morning
    assert told.passed(NEXT_EVENING) is gone_by_evening
