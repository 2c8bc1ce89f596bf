"""Times of day said in words, written as a clock shows them: "at half three" -> "at 3:30", "at
quarter to five" -> "at 4:45", "at ten past six" -> "at 6:10".

English tells the time by a closed grammar: a number of minutes, or a quarter or a half of an hour,
"past" or "to" an hour, and British English drops "past" after "half" ("half three" is 3:30). Neither
parsedatetime nor spaCy's recogniser reads these as a time. Only a time said after "at" is read, so
"half three of them" or "odds of ten to one" stay as they were. The words of the numbers are
inflect's own wording of them, so no table of number words is kept here.
"""

from __future__ import annotations

import functools
import re

import inflect

_FRACTIONS = {"quarter": 15, "half": 30}  # the parts of an hour a time is told by


@functools.cache
def _pattern() -> tuple[re.Pattern[str], dict[str, int]]:
    words = inflect.engine()
    numbers = {words.number_to_words(n): n for n in range(1, 60)} | {str(n): n for n in range(1, 60)}
    named = "|".join(sorted(map(re.escape, numbers), key=len, reverse=True))
    parts = "|".join(_FRACTIONS)
    return re.compile(
        rf"\bat (?:a )?(?:(?P<part>{parts}|{named})(?: minutes?)? (?P<way>past|after|to)|(?P<half>half)) "
        rf"(?P<hour>{named})\b(?! ?(?:am|pm|o'clock|:))", re.IGNORECASE), numbers


def clock_written(text: str) -> str:
    """`text` with each time of day said in words after "at" written as the clock shows it."""
    pattern, numbers = _pattern()

    def written(found: re.Match[str]) -> str:
        hour = numbers[found["hour"].lower()]
        if hour > 12:
            return found[0]
        part = found["part"] or found["half"]
        minutes = _FRACTIONS.get(part.lower()) or numbers[part.lower()]
        if found["way"] and found["way"].lower() == "to":
            hour, minutes = (hour - 2) % 12 + 1, 60 - minutes
        return f"at {hour}:{minutes:02d}"

    return pattern.sub(written, text)
