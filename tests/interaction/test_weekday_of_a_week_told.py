"""A day of the week said in the clause of a week told ("my shift next week starts Tuesday", "on
Tuesday next week") is that week's day: told on a Monday, the Tuesday of the week after, not the next
day, both when Nadine works out when it is and when she says the memory back with its date."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from interaction.reported_speech import SaidDay, dates_named
from interaction.told_time import told_in

MONDAY = datetime(2026, 12, 7, 10, 0)


@pytest.mark.parametrize(("text", "day"), [
    ("Remember that my shift next week starts Tuesday at 7am.", date(2026, 12, 15)),
    ("my dentist is on Tuesday next week", date(2026, 12, 15)),
    ("next week my allotment meeting is on Thursday", date(2026, 12, 17)),
    # a day of the week alone is the next one to come
    ("my shift starts Tuesday at 7am", date(2026, 12, 8)),
])
def test_the_day_of_the_week_told(text, day):
    told = told_in(text, MONDAY, spoken=False)
    assert told is not None and told.a_day and told.start.date() == day


def test_the_memory_said_back_names_the_day_of_that_week():
    text = "my shift next week starts Tuesday at 7am"
    said = dates_named(text, SaidDay(on=MONDAY.date(), today=date(2026, 12, 8)), 0, len(text))
    assert "Tuesday the 15th" in said, said


@pytest.mark.parametrize("text", ["my recital is on Saturday next week at 6pm", "my recital is next week on Saturday at 6pm"])
def test_the_date_said_back_stands_for_the_week_told(text):
    """"I'll remember that your recital is on Saturday the 19th next week at 6pm" (my play): once the
    day's date is said, the week told beside it is not said again."""
    said = dates_named(text, SaidDay(on=MONDAY.date(), today=date(2026, 12, 8)), 0, len(text))
    assert "Saturday the 19th" in said and "week" not in said, said


def test_two_days_of_the_week_leave_the_week():
    told = told_in("Two visits next week: the physio on Tuesday and the dentist on Thursday.", MONDAY, spoken=False)
    assert told is not None and not told.a_day and told.start.date() == date(2026, 12, 14)
