"""A value told later in place of one told earlier about the same thing of the person's: "my locker
code changed to 5582" after "my locker code is 4471", "the clinic moved my appointment to the 9th"
after "my dentist appointment is on the 4th". The earlier statement, said with the new value ("my
locker code is 5582"), is what holds now; the earlier one is history, never deleted by this.

Read off spaCy's parse and WordNet, never off the words: the later statement has a verb of change or
of motion (its most frequent WordNet sense in verb.change, verb.motion or verb.stative: "changed",
"moved", "pushed", "postponed"; not "gave", "sent"), or one done anew ("rescheduled": WordNet's sense
is a kind of scheduling), whose "to" / "until" phrase, or "for" phrase of a time, holds the new value
(a number, a name, a date: spaCy's entities and tags); its subject or object is a noun the earlier
statement names too (by lemma: "my appointment" is "my dentist appointment"; or as the event one
of its verbs tells, by WordNet's derivations: "the wedding" of "my cousin is getting married"); and the earlier
statement holds one phrase of the new value's kind (value_in_place.of_kind), which the new value takes
the place of (value_in_place.with_value). A profile field's change counts too when the fitted fact-change
model reads it so ("we moved to Cork" supersedes the location that "our home is in Limerick" sets).
Anything else is no change of it.
"""

from __future__ import annotations

from interaction.offline.parsing import ParserUnavailable, load_parser, stands_in
from interaction.offline.value_in_place import a_count, digits, holds_a_value, of_kind, time_part, with_value

_OF_CHANGE = frozenset({"verb.change", "verb.motion", "verb.stative"})
_THINGS = frozenset({"nsubj", "nsubjpass", "dobj"})
_DESTINATIONS = frozenset({"to", "until", "till"})  # the phrase a changed value goes to (a closed class)
_REPLACING = frozenset({"now", "instead"})  # the adverbs by which a clause says its value holds in place of one


def changed_value(later: str, earlier: str) -> str | None:
    """`earlier` with the value `later` changes it to; None when `later` changes no value of it."""
    found = value_change(later, earlier)
    return found[0] if found is not None else None


def value_change(later: str, earlier: str) -> tuple[str, str] | None:
    """`earlier` with the value `later` changes it to, and the words of `earlier` that value replaces;
    None when `later` changes no value of it."""
    try:
        nlp = load_parser()
    except ParserUnavailable:
        return None
    return thing_value_change(later, earlier) or _field_changed(nlp(later), nlp(earlier))


def thing_value_change(later: str, earlier: str) -> tuple[str, str] | None:
    """As value_change, for a thing `earlier` names given a new value ("the garage moved my MOT to the
    22nd"), not a profile field `later` supersedes ("I've moved to Cardiff" over "I live in Bristol
    with my two flatmates", where what went with the old home need not go with the new)."""
    try:
        nlp = load_parser()
    except ParserUnavailable:
        return None
    before = nlp(earlier)
    named = _named(before)
    said = {w for t in before for w in (t.lower_, t.lemma_.casefold())}
    for things, value in _values_changed(nlp(later)):
        # the same thing, and the same one of its kind: "the gate code changed" changes no gym locker
        # code (a word before the thing is said in any form: the tagger may call "bin" of "bin day" an adjective)
        if not any(thing in named and all(w & said for w in which) for thing, which in things):
            continue
        if any(_one_of_several(before, thing) for thing, _ in things):
            # "lunch with Luis is moved" of "a dentist appointment at 9 and then lunch at 1": the day they
            # share stays the dentist's
            return None
        span = _of_kind(value, before)
        if span is None or before[span[0]:span[1]].text.casefold() == " ".join(t.text for t in value).casefold():
            continue
        return with_value(value, before, span)[:2]
    return None


def joins_things(text: str) -> bool:
    """The statement names things joined one to another ("the optician at 11 and then tea at 3")."""
    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return False
    return any(_one_of_several(doc, t.lemma_.casefold()) for t in doc if t.pos_ == "NOUN")


def _one_of_several(doc, thing: str) -> bool:  # noqa: ANN001 - a spaCy Doc
    """The statement names the thing joined with another of its things ("an appointment at 9 and then
    lunch"): what they share is not the thing's alone to change."""
    return any(t.lemma_.casefold() == thing and t.pos_ == "NOUN" and (
        t.dep_ == "conj" or any(c.dep_ == "conj" and c.pos_ == "NOUN" for c in t.children)) for t in doc)


def _named(doc) -> set[str]:  # noqa: ANN001 - a spaCy Doc
    """What the statement names, lemmatised: its nouns, and the events its verbs tell, by the nouns
    WordNet derives from each verb's sense ("is getting married" names a wedding and a marriage)."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    events = {n for t in doc if t.pos_ == "VERB" for n in wordnet.nouns_of_verb(t.lemma_, of_its_sense=True)} \
        if wordnet is not None else set()
    # a kind of person the tagger took for an adjective before a noun ("my chiropodist appointment") is
    # named too: "the chiropodist has been moved to Friday" moves the appointment with them
    people = {t.lemma_.casefold() for t in doc if t.pos_ == "ADJ" and t.dep_ == "amod" and wordnet is not None
              and wordnet.kind_of_person(t.lemma_)}
    return {t.lemma_.casefold() for t in doc if t.pos_ in ("NOUN", "PROPN")} | events | people


def tells_a_change(text: str) -> bool:
    """`text` gives some thing a new value by a verb of change or motion ("the plumber moved my
    appointment to the 9th", "they moved it to the 9th"): read once a turn, before any kept memory is
    parsed beside it."""
    try:
        return any(_changes(load_parser()(text)))
    except ParserUnavailable:
        return False


def may_change(text: str) -> bool:
    """`text` may give something kept a new value: by a verb of change (`tells_a_change`) or as a
    profile change the fact-change model reads ("we moved to Cork"); read once a turn, so that only
    such turns are read beside each kept memory."""
    from interaction.offline.fact_changes import MIN_CONFIDENCE, MIN_FIELD_CONFIDENCE, default_model

    if tells_a_change(text):
        return True
    new = default_model().predict_each([text])[0]
    return new.op == "supersede" and bool(new.value) and new.op_p >= MIN_CONFIDENCE and new.field_p >= MIN_FIELD_CONFIDENCE


def _values_changed(doc):  # noqa: ANN001, ANN202 - a spaCy Doc; yields ([(lemma, [word forms])], Tokens)
    """For each verb of change or motion with a "to" / "until" phrase holding a value: the things it
    changes (its subject and object nouns), each by its lemma with the nouns before it that say which
    one ("gate" of "the gate code", as written and as its lemma), and the value's words."""
    for things, value in _changes(doc):
        nouns = [(t.lemma_.casefold(), [{c.lower_, c.lemma_.casefold()} for c in t.subtree
                                        if c.i < t.i and c.dep_ == "compound" and c.pos_ in ("NOUN", "PROPN")])
                 for t in things if t.pos_ in ("NOUN", "PROPN")]
        if nouns:
            yield nouns, value


def changed_it(doc):  # noqa: ANN001, ANN201 - a spaCy Doc; its Token or None
    """The "it" a verb of change gives a new value ("they moved it to the 16th", "it's been pushed back
    to Friday"), which stands for a thing told before; None when the change names its thing."""

    its = [t for things, _ in _changes(doc) for t in things if t.pos_ == "PRON" and stands_in(t)]
    return its[0] if len(its) == 1 else None


def _changes(doc):  # noqa: ANN001, ANN202 - a spaCy Doc; yields (Tokens, Tokens)
    """For each verb of change or motion, or one done anew ("rescheduled"), with a phrase that holds
    a value it goes to ("to", "until"; "for" of a time): the verb's subjects and objects, and the
    value's words."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    if wordnet is None:
        return
    yield from _now_values(doc)
    for verb in doc:
        if verb.pos_ != "VERB" or (wordnet.verb_lexical_file(verb.lemma_) not in _OF_CHANGE
                                   and not wordnet.does_anew(verb.lemma_)) or _asked(verb):
            continue
        things = [c for c in verb.children if c.dep_ in _THINGS and c.pos_ in ("NOUN", "PROPN", "PRON")]
        # "pushed the concert back to the 11th": the phrase may hang on the verb's particle or adverb
        heads = [verb, *(c for c in verb.children if c.dep_ in ("prt", "advmod"))]
        found = False
        for prep in (p for h in heads for p in h.children):
            value = _whole([t for c in prep.children if c.dep_ == "pobj" for t in c.subtree])
            if things and prep.dep_ == "prep" and _a_destination(prep, value) and holds_a_value(value):
                found = True
                yield things, value
        said_after = _value_said_after(verb) if things and not found else None
        if said_after is not None:
            yield things, said_after


def _now_values(doc):  # noqa: ANN001, ANN202 - a spaCy Doc; yields (Tokens, Tokens)
    """A value said to hold now or instead, by "be" ("the appointment is now on the 20th"; "they
    cancelled it. It's now next Monday at 9.", an "it" standing for what a sentence before it did
    something to: alone, "it's now 5 o'clock" tells the time): its subject, and the value's words."""
    for be in (t for t in doc if t.lemma_ == "be" and t.dep_ not in ("aux", "auxpass")):
        # the subject right before "be" (the small parser may file a clause before it as a second one:
        # "the hospital rang, the operation is now on the 22nd")
        subjects = [c for c in be.children if c.dep_ == "nsubj" and c.i < be.i]
        if not subjects or _asked(be) or not any(c.dep_ == "advmod" and c.lower_ in _REPLACING for c in be.children):
            continue
        subject = subjects[-1]
        if subject.pos_ == "PRON" and not (stands_in(subject) and any(
                t.lower_ == "it" and t.dep_ in ("dobj", "nsubjpass") and t.sent.start < be.sent.start for t in doc)):
            continue
        if subject.pos_ not in ("NOUN", "PROPN", "PRON"):
            continue
        # what "be" says after its subject, the adverb of replacing left out: the value whole ("next
        # Monday at 9", which the parse hangs on "be" in pieces)
        value = [t for t in be.subtree if t.i > be.i and not t.is_punct and t.i not in {c.i for c in subject.subtree}
                 and not (t.dep_ == "advmod" and t.head.i == be.i and t.lower_ in _REPLACING)]
        value = value[1:] if value and value[0].pos_ == "ADP" and value[0].lower_ in ("on", "at", "in") else value
        if value and holds_a_value(value):
            yield [subject], value


def _value_said_after(verb) -> list | None:  # noqa: ANN001 - a spaCy Token
    """The value a change with no destination is given in the clause after it, whose subject stands
    for the changed thing and which says it holds now or instead ("the flight got changed, it's now on
    June 9th at 11pm", "the meeting has moved, it's on Friday instead", "the gate code changed, it's
    5590 now"); None when there is none."""
    for be in (t for t in verb.sent if t.i > verb.i and t.lemma_ == "be" and t.dep_ not in ("aux", "auxpass")):
        if not any(c.dep_ == "nsubj" and stands_in(c) for c in be.children) \
                or not any(c.dep_ == "advmod" and c.lower_ in _REPLACING for c in be.children):
            continue
        values = [[t for c in prep.children if c.dep_ == "pobj" for t in c.subtree]
                  for prep in be.children if prep.dep_ == "prep"] + [list(c.subtree) for c in be.children if c.dep_ == "attr"]
        for value in map(_whole, values):
            if holds_a_value(value):
                return value
    return None


def _asked(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    """The verb's auxiliary comes before its subject: a question ("is my brother going to Toronto or
    Vancouver?", "did they move it to the 9th?") asks what holds and gives nothing a new value."""
    subjects = [c.i for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    return any(c.dep_ in ("aux", "auxpass") and any(c.i < s for s in subjects) for c in verb.children)


def _a_destination(prep, value: list) -> bool:  # noqa: ANN001 - a spaCy Token
    """The phrase says where the value goes: "to" / "until" a value, "for" a time ("rescheduled it for
    the 3rd"; "changed it for a bigger one" swaps a thing, it gives none a value)."""
    return prep.lower_ in _DESTINATIONS or prep.lower_ == "for" and all(time_part(t) for t in value if t.pos_ not in ("DET", "ADP"))


def _whole(value: list) -> list:
    """A new time with the words of time right after it that the parse hung elsewhere ("to Thursday
    the 10th at nine in the morning": "the 10th" and "at nine" hang on the verb): joined by an article
    or a preposition, or a number; not a time of the change itself ("to the 16th last week"). Words
    after a comma that are no time are none of it ("to the 9th, same time")."""
    comma = next((i for i, t in enumerate(value) if t.text == ","), None)
    if comma is not None and not all(time_part(t) for t in value[comma + 1:] if t.pos_ not in ("DET", "ADP")
                                     and not t.is_punct):
        value = value[:comma]
    if not value or not all(time_part(t) for t in value if t.pos_ not in ("DET", "ADP") and not t.is_punct):
        return value
    def of_it(token) -> bool:  # noqa: ANN001 - a spaCy Token
        # "last" of "last week" tells when the change was made, "14th" of "Saturday the 14th" is the day
        return bool(time_part(token)) and (token.pos_ != "ADJ" or digits(token))

    doc, end = value[0].doc, value[-1].i + 1
    while end < len(doc):
        # articles and prepositions may join them ("at nine in the morning"), or a comma a time in
        # figures ("to Friday the 6th, 9:15 in the morning"; "to the 9th, same time" keeps the time it had)
        gap = end
        while gap < len(doc) and doc[gap].pos_ in ("DET", "ADP"):
            gap += 1
        if gap == end and doc[end].text == "," and end + 1 < len(doc) and digits(doc[end + 1]):
            gap += 1
        if gap == len(doc) or not of_it(doc[gap]):
            break
        end = gap + 1
    return sorted({*value, *doc[value[-1].i + 1:end]}, key=lambda t: t.i)


def _field_changed(after, before) -> tuple[str, str] | None:  # noqa: ANN001 - spaCy Docs
    """`before` with the new value of the profile field `after` supersedes, when the fact-change model
    reads `before` as setting that same field (both readings as sure as a profile change needs)."""
    from interaction.offline.fact_changes import MIN_CONFIDENCE, MIN_FIELD_CONFIDENCE, default_model

    new, old = default_model().predict_each([after.text, before.text])
    if new.op != "supersede" or not new.value or old.op not in ("set", "supersede") or new.field != old.field \
            or min(new.op_p, old.op_p) < MIN_CONFIDENCE or min(new.field_p, old.field_p) < MIN_FIELD_CONFIDENCE:
        return None
    start = after.text.find(new.value)
    value = after.char_span(start, start + len(new.value), alignment_mode="expand") if start >= 0 else None
    span = of_kind(list(value), before) if value is not None else None
    if span is None or before[span[0]:span[1]].text.casefold() == value.text.casefold() \
            or _a_things_own(before[span[0]:span[1]].root):
        return None
    return with_value(list(value), before, span)[:2]


def _a_things_own(value) -> bool:  # noqa: ANN001 - a spaCy Token
    """The value is said of a thing, not of the speaker: its phrase hangs on a noun ("a job interview
    in Toronto" names no home of theirs, which "I'm moving to Canada" would move)."""
    return value.dep_ == "pobj" and value.head.dep_ == "prep" and value.head.head.pos_ == "NOUN"


def _of_kind(value: list, before) -> tuple[int, int] | None:  # noqa: ANN001 - spaCy Tokens, a Doc
    """The phrase of `before` the new value takes the place of: the one of its kind (value_in_place.of_kind),
    else, for a value written with digits that the tagger gave no kind ("the 22nd" beside "the 15th"
    tagged an ordinal), the one entity or word of `before` written with digits."""
    span = of_kind(value, before)
    if span is not None or not any(digits(t) for t in value):
        return span
    spans = {(e.start, e.end) for e in before.ents if any(digits(t) for t in e)} \
        | {(t.i, t.i + 1) for t in before if digits(t) and not t.ent_type_}
    spans = {(s, e) for s, e in spans if a_count(before[s:e]) == a_count(value)}
    return spans.pop() if len(spans) == 1 else None
