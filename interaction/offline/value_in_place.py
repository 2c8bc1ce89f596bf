"""A new value put in the place of the one of its kind in an earlier statement: "the 22nd" in "my
MOT is on the 15th" makes "my MOT is on the 22nd". Shared by a correction ("I meant the 22nd") and a
change told later ("they moved my MOT to the 22nd"), read off spaCy's parse of both."""

from __future__ import annotations

import re

DAY = re.compile(r"^\d{1,2}(?:st|nd|rd|th)?$", re.IGNORECASE)  # a day of the month, with its ordinal or without


def span_text(tokens) -> str:  # noqa: ANN001 - spaCy Tokens
    tokens = sorted(tokens, key=lambda t: t.i)
    return "".join(t.text_with_ws for t in tokens).strip(" ,.;!") if tokens else ""


def of_kind(value: list, doc, any_name: bool = False) -> tuple[int, int] | None:  # noqa: ANN001 - spaCy Tokens, a Doc
    """The one phrase of the earlier statement of the new value's kind: its entity type, else a proper
    noun for a proper noun, and a number for a number (the small tagger files a bare "73" as a date
    as often as a cardinal); a count for a count only (`a_count`), so that "the 3rd of February"
    never takes the place of the PIN "4471", whatever entity type the tagger gave either; `any_name`: see
    below."""
    kinds = {t.ent_type_ for t in value if t.ent_type_}
    spans: list[tuple[int, int]] = []
    told = [t for t in value if t.pos_ not in ("DET", "ADP") and not t.is_punct]
    parts = {time_part(t) for t in told}
    if told and None not in parts:
        # a time, however the small tagger cut it into entities ("Wednesday", "the 4th of June" and
        # "5pm" of one date): the earlier words of time of the same parts
        spans = _times_of(doc, parts)
    elif kinds:
        spans = [(e.start, e.end) for e in doc.ents if e.label_ in kinds or {e.label_, *kinds} <= {"DATE", "ORDINAL"}
                 or {e.label_, *kinds} <= {"GPE", "LOC", "ORG", "FAC", "NORP"}]
    # ... with `any_name`, a name the recogniser files as no kind it gave the earlier one ("Hove" as a
    # work of art after "Brighton" as a town, put right in the same breath): the earlier proper name.
    # Across turns a name of another kind is no repair ("Hi, it's Hildegard" a day after "my uncle
    # Boris is visiting" introduces her)
    if not spans and (any_name or not kinds) and all(t.pos_ in {"PROPN", "DET"} for t in value):
        spans = [(c.start, c.end) for c in doc.noun_chunks if c.root.pos_ == "PROPN"]
    if not spans and all(t.like_num for t in value):
        spans = [(t.i, t.i + 1) for t in doc if t.like_num]
    spans = [(s, e) for s, e in spans if a_count(doc[s:e]) == a_count(value)]
    return spans[0] if len(spans) == 1 else None


def time_part(token) -> str | None:  # noqa: ANN001 - a spaCy Token
    """Which part of a time the word says: "day" (a weekday, a month, a day of the month, a year),
    "clock" (a time of day), None for neither. spaCy's entity types, else the word as parsedatetime
    reads it alone (a name or a noun: "June", "Wednesday", "morning")."""
    import parsedatetime

    from interaction.told_time import DIGITAL_CLOCK, HOUR_AT, ORDINAL_DAY, calendar

    if token.ent_type_ == "TIME" or DIGITAL_CLOCK.fullmatch(token.text):  # "11:00", whatever the tagger said
        return "clock"
    # "on Tuesday at 5": a bare hour "at" a time is of the clock, though the tagger calls it a count
    if HOUR_AT.fullmatch(token.text) and token.dep_ == "pobj" and token.head.lower_ == "at":
        return "clock"
    if token.ent_type_ in ("DATE", "ORDINAL") or ORDINAL_DAY.fullmatch(token.text):
        return "day"
    doc = token.doc
    if DAY.match(token.text) and token.i + 2 < len(doc) and doc[token.i + 1].lower_ == "of" \
            and time_part(doc[token.i + 2]) == "day":
        return "day"  # "19 of April", a count to the tagger
    if token.is_alpha and token.pos_ in ("PROPN", "NOUN"):
        accuracy = calendar().parse(token.text)[1].accuracy
        of_the_clock = parsedatetime.pdtContext.ACU_HALFDAY | parsedatetime.pdtContext.ACU_HOUR | parsedatetime.pdtContext.ACU_MIN
        return "clock" if accuracy & of_the_clock else "day" if accuracy else None
    return None


def _times_of(doc, parts: set) -> list[tuple[int, int]]:  # noqa: ANN001 - a spaCy Doc
    """The phrases of time of `doc` (runs of words of time, an article or a preposition inside one
    joining them: "Wednesday the 4th of June at 5pm"), each cut to the words of the given parts: a new
    day replaces the day and keeps the time, a new day and time replace both."""
    runs: list[tuple[str, int, int]] = []  # (part, start, end), in order
    for t in doc:
        part = time_part(t)
        if part is not None and runs and runs[-1][0] == part and runs[-1][2] == t.i:
            runs[-1] = (part, runs[-1][1], t.i + 1)
        elif part is not None:
            runs.append((part, t.i, t.i + 1))
        elif runs and runs[-1][2] == t.i and t.pos_ in ("DET", "ADP") and t.i + 1 < len(doc) \
                and time_part(doc[t.i + 1]) == runs[-1][0]:
            runs[-1] = (runs[-1][0], runs[-1][1], t.i + 1)  # "the" of "Wednesday the 4th", "of" of "4th of June"
    phrases: list[list[tuple[str, int, int]]] = []
    for run in runs:
        between = doc[phrases[-1][-1][2]:run[1]] if phrases else []
        # "at" between "the 4th of June" and "5pm"; a comma between a day and its time ("18 of April, 11:00"),
        # never between two days ("Monday, Tuesday")
        if phrases and all(t.pos_ in ("DET", "ADP") or (t.text == "," and phrases[-1][-1][0] != run[0])
                           for t in between):
            phrases[-1].append(run)
        else:
            phrases.append([run])
    spans = []
    for phrase in phrases:
        kept = [r for r in phrase if r[0] in parts]
        if kept:
            spans.append((kept[0][1], kept[-1][2]))
    return spans


def a_count(words) -> bool:  # noqa: ANN001 - spaCy Tokens
    """The words are a number alone (a code, an amount, an age: "4471", "seventy-three"), every word
    besides an article tagged a cardinal number; a date or a day of the month ("the 3rd", "March 3")
    is not, though it holds one."""
    said = [t for t in words if t.pos_ != "DET" and not t.is_punct]
    return bool(said) and all(t.tag_ == "CD" for t in said)


def holds_a_value(words) -> bool:  # noqa: ANN001 - spaCy Tokens
    """Some word is a value a thing can be given: an entity, a number, a name, figures."""
    return any(t.ent_type_ or t.like_num or t.pos_ in ("NUM", "PROPN") or digits(t) for t in words)


def digits(token) -> bool:  # noqa: ANN001 - a spaCy Token
    return any(c.isdigit() for c in token.text)


def _within_the_phrase(new: list, earlier, span: tuple[int, int]) -> list:  # noqa: ANN001 - spaCy Tokens, a Doc
    """The new words without those the earlier phrase around the old value already has beyond it: "three
    greyhounds, not two" said of "two rescue greyhounds" puts "three" for "two", not "three greyhounds"
    (which read "three greyhounds rescue greyhounds")."""
    head = earlier[span[0]].head
    if not span[0] <= head.i < span[1] and head.pos_ in {"NOUN", "PROPN"}:
        around = {t.lower_ for t in head.subtree if not span[0] <= t.i < span[1]}
        kept = [t for t in new if t.lower_ not in around]
        return kept or new
    return new


def _replacement(new: list, earlier, span: tuple[int, int]) -> str:  # noqa: ANN001 - spaCy Tokens, a Doc
    """The new words for the earlier phrase: a day alone ("the 14th") changes only the day of a date
    ("March 3" -> "March 14"), unless the date names its day of the week too, which the new day would
    belie ("Tuesday the 8th" -> "the 10th", not "Tuesday the 10th")."""
    words = [t for t in new if t.pos_ != "DET"]
    old = earlier[span[0]:span[1]]
    days = [t for t in old if DAY.match(t.text)]
    if len(words) == 1 and DAY.match(words[0].text) and len(days) == 1 and len(old) > 1 + (old[0].pos_ == "DET") \
            and not any(_a_weekday(t) for t in old if t not in days):
        day = words[0].text if not days[0].text.isdigit() else re.sub(r"\D", "", words[0].text)
        return "".join((day + t.whitespace_) if t.i == days[0].i else t.text_with_ws for t in old).strip()
    return span_text(new)


def _a_weekday(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """The word names a day by itself, as parsedatetime reads it alone: a day of the week."""
    import parsedatetime

    from interaction.told_time import calendar

    return token.is_alpha and calendar().parse(token.text)[1].accuracy == parsedatetime.pdtContext.ACU_DAY


def with_value(new: list, before, span: tuple[int, int]) -> tuple[str, str, str]:  # noqa: ANN001 - a spaCy Doc
    """The earlier statement `before` with the value `new` in place of its phrase at `span`: the
    statement, the words replaced and the words put in their place."""
    # the earlier words around the old value that the new one repeats belong to it ("the 3rd of
    # April" corrected by "the 13th of April")
    start, end = span
    if start > 0 and before[start - 1].pos_ in {"DET", "ADP"} and new[0].pos_ == before[start - 1].pos_:
        # "on the 5th" put right by "the 15th", "in May" by "in June": one article or preposition,
        # not "the the 15th"
        start -= 1
    repeated = {t.lower_ for t in new if not t.is_punct}
    while end < len(before) and before[end].lower_ in repeated and not before[end].is_punct:
        end += 1
    replaced = _replacement(_within_the_phrase(new, before, (start, end)), before, (start, end))
    corrected = before[:start].text_with_ws + replaced + (before[end - 1].whitespace_ if end > start else "") \
        + before[end:].text
    return corrected.strip(), before[start:end].text, replaced
