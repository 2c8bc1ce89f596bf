"""A question whose only thing is "it" ("how many weeks till it?", "when is it again?") asks after the
last thing the person told with a date, as a value put right with "it" ("it's now the 3rd") is put
right in what was told last (offline/corrections.py). The question is read with "it" as that thing,
the subject of the statement that dated it ("how many weeks till it?" after "our village fete is on
the 20th of June": "how many weeks till our village fete?"). So is a change told with "it" ("they
moved it to the 16th" after "my MRI scan is on the 14th"): read as a change of that thing, and news
of what was done to "it" ("it's been cancelled") as news of that thing. And a
question of a thing alone ("And the bank appointment?") is read as the question before it asked after
its own thing ("When is the optician?" -> "When is the bank appointment?")."""

from __future__ import annotations

from interaction.memory.contracts import TranscriptTurn
from interaction.memory.time_window import TIME_UNITS
from interaction.offline.parsing import stands_in
from interaction.told_time import named_time

_NAMING = {"NOUN", "PROPN"}
_SUBJECTS = {"nsubj", "nsubjpass"}


def with_it_named(question: str, said: list[TranscriptTurn], questions: list[TranscriptTurn] = ()) -> str:
    """`question` with its one "it" said as the thing the latest of `said` (this conversation's
    statements, oldest first) dates, else as the thing the latest of `questions` (turns before it)
    asked after ("When is my cardiology appointment?" then "Where is it?"); unchanged when it names a
    thing of its own (a unit of time counted is none), or when neither names a thing."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return question
    asked = nlp(question)
    its = [t for t in asked if (stands_in(t) or _that_told(t, asked)) and t.pos_ == "PRON"]
    if len(its) != 1 or any(t.pos_ in _NAMING and t.lower_ not in TIME_UNITS for t in asked) or _judged(its[0]):
        return question
    phrase = _last_dated(nlp, said) or last_asked_after(nlp, questions)
    if phrase is None:
        return question
    return _named(question, its[0], phrase)


def _that_told(pronoun, asked) -> bool:  # noqa: ANN001 - a spaCy Token, a spaCy Doc
    """"that" or "this" as the subject of a question asking when, where or whether ("when is that
    again?", "is that still on?"): a thing said before. Asked by "what" or "who" ("what was that?",
    "who's that?") it asks what was just said or who is seen."""
    return pronoun.dep_ in _SUBJECTS and pronoun.morph.get("PronType") == ["Dem"] \
        and pronoun.morph.get("Number") == ["Sing"] and not any(t.tag_ in ("WP", "WP$", "WDT") for t in asked)


def _judged(it) -> bool:  # noqa: ANN001 - a spaCy Token
    """"it" the subject of an adjective ("do you think it gets easier?", "will it be okay?"): how
    things are, asked to be judged, not a thing told with a date ("is it still on?", "is it cancelled?")."""
    return it.dep_ == "nsubj" and any(c.dep_ == "acomp" and c.tag_ in ("JJ", "JJR", "JJS") for c in it.head.children)


def last_asked_after(nlp, turns: list[TranscriptTurn]) -> str | None:  # noqa: ANN001 - a spaCy pipeline
    """The subject phrase of the latest question of `turns`, when it names a thing ("my cardiology
    appointment" of "When is my cardiology appointment?"); else the thing the speaker's own verb of it
    asks which ("my tattoo" of "what tattoo did i get", "my restaurant" of "what kind of restaurant i
    have?")."""
    from interaction import cues

    found = _last_question_subject(nlp, turns)
    if found is not None:
        return found[0][found[1]:found[2]]
    question = next((t for t in reversed(list(turns)) if t.role == "user" and cues.is_question(t.text)), None)
    return _own_thing_asked(nlp(question.text)) if question is not None else None


def _own_thing_asked(doc) -> str | None:  # noqa: ANN001 - a spaCy Doc
    """"my <thing>" for the object a wh-word asks which of, of a verb whose subject is the speaker ("what
    tattoo did i get": the tattoo; "what kind of restaurant i have?": the restaurant)."""
    from interaction.offline.grounding import first_person

    for obj in (t for t in doc if t.dep_ == "dobj" and t.pos_ == "NOUN"):
        if not any(c.dep_ == "nsubj" and first_person(c) and c.morph.get("Number") == ["Sing"] for c in obj.head.children) \
                or not any(c.tag_ in ("WDT", "WP") for c in (obj, *obj.children)):
            continue
        kinds = [g for c in obj.children if c.dep_ == "prep" and c.lower_ == "of" for g in c.children if g.dep_ == "pobj"]
        thing = kinds[0] if kinds and kinds[0].pos_ == "NOUN" else obj
        return "my " + " ".join(t.lower_ for t in (*(c for c in thing.lefts if c.dep_ == "compound"), thing))
    return None


def _last_question_subject(nlp, turns: list[TranscriptTurn]) -> tuple[str, int, int] | None:  # noqa: ANN001
    """The latest question of `turns` and the character span of its subject phrase, when it names a
    thing; None when it names none."""
    from interaction import cues

    for turn in reversed(list(turns)):
        if not cues.is_question(turn.text):
            continue
        doc = nlp(turn.text)
        if not any(t.pos_ in ("VERB", "AUX") for t in doc):
            continue  # itself asked as the one before it was ("and the bank?")
        subject = next((t for t in doc if t.dep_ in _SUBJECTS and t.pos_ in _NAMING), None)
        if subject is None:
            return None
        start = doc[subject.left_edge.i].idx
        return turn.text, start, subject.idx + len(subject.text)
    return None


def with_frame_asked(question: str, questions: list[TranscriptTurn]) -> str:
    """A question of a thing alone, with no verb ("And the bank appointment?", "what about the bank?"),
    asked as the latest of `questions` (turns before it) asked after its own thing ("When is the
    optician?" -> "When is the bank appointment?"); unchanged otherwise."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    if not question.rstrip().endswith("?"):
        return question
    try:
        nlp = load_parser()
    except ParserUnavailable:
        return question
    doc = nlp(question)
    things = [c for c in doc.noun_chunks if c.root.pos_ in _NAMING]
    if any(t.pos_ in ("VERB", "AUX") for t in doc) or len(things) != 1:
        return question
    before = _last_question_subject(nlp, questions)
    if before is None:
        return question
    text, start, end = before
    return text[:start] + things[0].text + text[end:]


def news_with_it_named(text: str, said: list[TranscriptTurn]) -> str | None:
    """`text` with the "it" a verb of change gives a new value (offline/value_changes.changed_it), or
    the "it" something was done to (`done_to_it`), said as the thing the latest of `said` (the person's
    statements, oldest first) dates; None when the news names its own thing, or nothing told before it
    has a date and a subject that names one."""
    from interaction.offline.parsing import ParserUnavailable, load_parser
    from interaction.offline.value_changes import changed_it

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return None
    doc = nlp(text)
    it = changed_it(doc) or _done_to(doc)
    phrase = _last_dated(nlp, said) if it is not None else None
    return _named(text, it, phrase) if phrase is not None else None


def done_to_it(text: str) -> bool:
    """`text` tells what was done to an "it" ("it's been cancelled", "they called it off")."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        return _done_to(load_parser()(text)) is not None
    except ParserUnavailable:
        return False


def _done_to(doc):  # noqa: ANN001, ANN202 - a spaCy Doc; its Token or None
    """The one "it" that is the subject of a passive ("it's been cancelled", "it got pushed back") or
    the object of a verb with a particle ("they called it off"): a pronoun that stands for a thing,
    never the "it" that opens a clause said after it ("it was decided that ...", "it's raining")."""
    its = [t for t in doc if t.pos_ == "PRON" and stands_in(t) and t.head.pos_ == "VERB" and (
        t.dep_ == "nsubjpass" and not any(c.dep_ in ("ccomp", "xcomp") for c in t.head.children)
        or t.dep_ == "dobj" and any(c.dep_ == "prt" for c in t.head.children))]
    return its[0] if len(its) == 1 else None


def _last_dated(nlp, said: list[TranscriptTurn]) -> str | None:  # noqa: ANN001 - a spaCy pipeline
    """The thing the latest statement of `said` that names a time dates: its subject phrase ("my MRI
    scan" of "my MRI scan is on the 14th"), or, when the subject is someone, what they have or do ("the
    violin exam" of "my grandson Finn has a violin exam on Thursday": "it" stands for no person); None
    when none names a time, or it names no thing."""
    dated = next((nlp(turn.text) for turn in reversed(said) if named_time(nlp(turn.text), turn.at) is not None), None)
    subject = next((t for t in dated if t.dep_ in _SUBJECTS), None) if dated is not None else None
    if subject is None:
        return None
    if subject.pos_ in _NAMING and not _someone(subject):
        return dated[subject.left_edge.i:subject.i + 1].text
    thing = next((c for c in subject.head.children if c.dep_ == "dobj" and c.pos_ in _NAMING and not _someone(c)), None)
    if thing is None or not _someone(subject):
        return None
    words = [t.text for t in dated[thing.left_edge.i:thing.i + 1]]
    # a thing brought in with "a" is "the" thing once spoken of
    return " ".join(["the", *words[1:]] if words[0].lower() in ("a", "an") else words)


def _someone(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """A person: a pronoun, a name the recogniser reads as a person's or the parse places beside a
    person word ("my granddaughter Ivy"), or a kind of person by WordNet."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.personal_facts import people_named

    if token.pos_ == "PRON" or token.ent_type_ == "PERSON" or token in people_named(token.doc):
        return True
    wordnet = load_wordnet()
    return wordnet is not None and wordnet.lexical_file(token.lemma_.lower()) == "noun.person"


def _named(text: str, it, phrase: str) -> str:  # noqa: ANN001 - a spaCy Token
    first = phrase[:1].upper() if it.is_sent_start else phrase[:1].lower()
    end = it.idx + len(it.text)
    after = it.nbor(1) if it.i + 1 < len(it.doc) else None
    if after is not None and after.idx == end and after.lemma_ == "be" and after.dep_ not in ("aux", "auxpass") \
            and after.lower_ in ("'s", "\u2019s"):
        # "It's now Monday" said as "my appointment is now Monday": the copula's "'s" after a noun reads
        # as whose ("it's been cancelled" keeps its "'s", the auxiliary "has")
        return text[:it.idx] + first + phrase[1:] + " is" + text[end + len(after.text):]
    return text[:it.idx] + first + phrase[1:] + text[end:]
