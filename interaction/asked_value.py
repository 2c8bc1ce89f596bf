"""Whether a remembered thing says what a yes / no question asks: "Is my MOT due in March?" over "my
car's MOT is due on the 28th of February" is a no, "Is my gym locker number 112?" over "my locker at
the gym is number 112" a yes. A question asking whether, answered "Yes —" whatever its value, would
agree with a false premise.

The values a question asks are read off spaCy's entities and tags: a date or time, a number, a place
(one that is not part of its subject: "is my Paris flight on Monday?" asks the day), never the time
something was told ("did I tell you yesterday ...?"). Each is compared
with the memory's value of the same kind: dates by the calendar (told_time.py reads the memory's as
of the day it was told), numbers as said, places by their words or by WordNet (a place within the
one asked, or containing it, agrees). A date asked by its name ("in March", "on the 9th of June",
"on the 19th") is compared by month, and day of the month when both name one, whatever the year; one
asked from today ("tomorrow", "this week", "on Friday") names a stretch of the clock's calendar, and
the memory's day is inside it, outside it, or (a month told, a week asked) neither.
A question naming no such value ("is my uncle retiring?") has nothing to compare: None.
"""

from __future__ import annotations

import calendar as std_calendar
from datetime import datetime, timedelta
from typing import Literal

import parsedatetime

from common.clock import spoken_day
from interaction.memory.time_window import precision_of, unit_window
from interaction.offline.chat_spelling import lemma_meant
from interaction.told_time import (
    DAY_OF_MONTH,
    OF_A_DAY,
    ORDINAL_DAY,
    ToldTime,
    calendar,
    days_alone,
    named_time,
)

Verdict = Literal["yes", "no", "unsure"]
_TIME_ENTS = {"DATE", "TIME"}
_PLACE_ENTS = {"GPE", "LOC", "FAC"}
_ACU = parsedatetime.pdtContext
# a date named by the calendar resolves to the same month read a season later; one named from today does not
_A_SEASON = timedelta(days=100)
_TELLING = ("verb.communication", "verb.cognition")  # WordNet's verb files of saying and of knowing
_HOLDING = {"have", "get", "be"}  # "I've got a piano" holds as "do I have a piano?" asks
_ROLES = {"dobj", "nsubj", "nsubjpass"}
_STATES = {"advmod", "prt"}  # a state said of a subject by a copula and a particle ("is off", "is over")


def whether_told(question: str, memory: str, told_on: datetime | None, now: datetime) -> Verdict | None:
    """"yes" when every value the question asks is the memory's, "no" when one differs from the
    memory's value of its kind, "unsure" when one cannot be compared; None when it asks none."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return None
    q, m = nlp(question), nlp(memory)
    # a place said of the subject is who it is ("is my friend from Paris coming?"), unless the place is
    # all a copula says of it: the parser hangs "in Doha" of "is Cian in Doha?" on "Cian"
    subject = {t.i for s in q if s.dep_ in ("nsubj", "nsubjpass") and not _only_predicate(s) for t in s.subtree}
    verdicts: list[Verdict] = []
    for ent in [*q.ents, *days_alone(q)]:
        if _a_date(ent, now) and not _when_told(ent):
            verdicts.append(_same_date(ent.text, now, named_time(m, told_on or now), _in_the_past(q)))
        elif ent.label_ in _PLACE_ENTS and not subject & {t.i for t in ent}:
            verdicts.append(_same_place(ent, m))
    asked = _numbers(q, now)
    if asked:
        held = _numbers(m, told_on or now)
        verdicts.append("unsure" if not held else "yes" if asked <= held
                        else "no" if all(n.isdigit() for n in asked | held) else "unsure")
    if not verdicts:
        return None
    return "no" if "no" in verdicts else "unsure" if "unsure" in verdicts else "yes"


def _only_predicate(subject) -> bool:  # noqa: ANN001 - a spaCy Token
    """The subject's verb is a copula that says nothing else of it (no attribute, complement or phrase
    of its own), so what hangs on the subject is what the copula says."""
    verb = subject.head
    return verb.lemma_ == "be" and not any(c.dep_ in ("attr", "acomp", "prep", "xcomp", "ccomp") for c in verb.children)


def says_what_is_asked(question: str, memory: str, things_agree: bool = False) -> bool:
    """Whether the memory says every content word a yes/no question asks about besides its subject
    ("is my daughter getting married?" over "my daughter Helen is going to Australia": no "marry" in
    it), by lemma, the question's telling or remembering frame left out ("did I tell you ..."); a
    question with none asks nothing the memory could miss ("is it still on?"). `things_agree`: the
    retrieval core's entity reader found every thing the question names in the memory, by WordNet or
    by the heads' cosine where WordNet files the words apart ("pets" for "two cats"), so a noun asked
    is said there; what is asked of it still must be (a question naming no thing asks of its doing or
    state, which the core read as the event it names). True without the parser."""
    from interaction.offline.parsing import ParserUnavailable, load_parser, of_having

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return True
    q, m = nlp(question), nlp(memory)
    nouns = memory_nouns(m)
    held = {lemma_meant(t) for t in m} | {t.lower_ for t in m} | nouns
    for sent in q.sents:
        clause = _asked_clause(sent)
        predicate = _predicate_misread(sent)
        subject = {w.i for s in clause if s.dep_ in ("nsubj", "nsubjpass") for w in s.subtree} - predicate
        # the verbs an indefinite pronoun is the object of ask whether anything was done, whatever it
        # was ("did I need to get anything from the pharmacy?" over "I have to pick up my prescription
        # from the pharmacy")
        open_ended = {a.i for t in clause if t.morph.get("PronType") == ["Ind"] and t.dep_ == "dobj"
                      for a in (t.head, *t.head.ancestors) if a.pos_ in ("VERB", "AUX")}
        # a chat spelling asks for the word it stands for ("my physio appt" of "my physio appointment")
        asked = [t for t in clause if t.i not in subject | open_ended and not t.is_stop and not of_having(t)
                 and t.pos_ in ("NOUN", "PROPN", "VERB", "ADJ", "NUM")]
        # as meant, or as typed: the lemmatiser cuts "diabetes" to "diabete"; or a kind of which the
        # memory names one ("what health condition do I have?" over "I'm asthmatic": asthma is one), or
        # of what an adjective names ("is my nephew ill?" over "he has pneumonia"), with the nouns that
        # narrow it
        missing = [t for t in asked if not {lemma_meant(t), t.lower_} & held]
        # ... and, where the question names no thing, the doing or state the core read as the event
        # it asks of ("am I married?": a marriage, which "my wife Sian" agrees with)
        agreed = ("NOUN",) if any(t.pos_ in ("NOUN", "PROPN") for t in q) else ("NOUN", "VERB", "ADJ")
        # ... never what the subject is asked to be, which is said as such or not at all ("am I still a
        # teacher?" over "I quit teaching": the core agrees the teacher with the teaching)
        kinds = {t.i for t in missing if t.pos_ in agreed and t.dep_ != "attr" and t.i not in predicate and things_agree
                 or t.pos_ in ("NOUN", "ADJ") and any(
            _has_one_of(n, nouns) for n in ((t.lemma_.lower(),) if t.pos_ == "NOUN" else ()) + _nouns_of_adjective(t))}
        if any(t.i not in kinds and not (t.dep_ == "compound" and t.head.i in kinds) for t in missing):
            return False
        if _of_someone_else(clause, m):
            return False
    return True


def _predicate_misread(sent) -> set[int]:  # noqa: ANN001 - a spaCy Span
    """The words of what a "be" question asks its subject to be where the parser set them beside the
    subject instead ("is Karim a teacher?": "teacher" in apposition to "Karim"): a "be" with no
    attribute or complement of its own asks what the apposition says."""
    root = sent.root
    if root.lemma_ != "be" or any(c.dep_ in ("attr", "acomp") for c in root.children):
        return set()
    return {w.i for s in root.children if s.dep_ == "nsubj" for a in s.children if a.dep_ == "appos" for w in a.subtree}


def _asked_clause(sent) -> list:  # noqa: ANN001 - a spaCy Span
    """The words of a question sentence that ask: the clause a telling or remembering frame holds ("did
    I tell you my son is moving?"), else the sentence; the frame without a clause asks whether what it
    names was told ("did I tell you about Bruno?"), its verb left out."""
    root = sent.root
    telling = _of_telling(root)
    framed = next((c for c in root.children if c.dep_ == "ccomp"), None) if telling else None
    return list(framed.subtree) if framed is not None else [t for t in sent if not (telling and t.i == root.i)]


def said_of_someone_else(question: str, memory: str) -> str | None:
    """Who the memory says a yes/no question's doing or state of ("am I retired?" over "my dad retired
    last month": "my dad"), when it says it only of someone else, named by a noun (a pronoun names no
    one to say back); None otherwise."""
    from interaction.offline.grounding import first_person
    from interaction.offline.parsing import ParserUnavailable, load_parser, with_appositions

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return None
    q, m = nlp(question), nlp(memory)
    clauses = [_asked_clause(sent) for sent in q.sents]
    others = {s.i: s for clause in clauses for s in [*_of_someone_else(clause, m), *_placed_someone_else(clause, m)]}
    named = [s if first_person(s) else _person_meant(s) for s in others.values()]
    return with_appositions(named[0]) if len(named) == 1 and named[0] is not None else None


def _person_meant(subject):  # noqa: ANN001, ANN202 - a spaCy Token -> Token or None
    """The subject as a noun: itself, or for "he" / "she" the person the memory named as a subject
    before it ("my brother Kamau just moved to Dubai, he works as a pilot there"); None when none is."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    if subject.pos_ in ("NOUN", "PROPN"):
        return subject
    if subject.morph.get("Person") != ["3"] or subject.morph.get("Number") != ["Sing"] or subject.lower_ == "it":
        return None
    wordnet = load_wordnet()
    before = [t for t in subject.doc[:subject.i] if t.dep_ in ("nsubj", "nsubjpass") and (
        t.ent_type_ == "PERSON" or t.pos_ == "NOUN" and wordnet is not None and wordnet.kind_of_person(t.lemma_.lower()))]
    return before[-1] if before else None


def _placed_someone_else(clause: list, memory) -> list:  # noqa: ANN001 - spaCy Tokens and Doc
    """The question asks whether the speaker is somewhere ("do I live in Canada?") and the memory says
    someone else is, or went, there ("my brother Alexei just moved to Canada"): the subjects of the
    memory's clauses that name the place, when none of them is the speaker."""
    from interaction.offline.grounding import first_person
    from interaction.offline.parsing import subject_of, verb_of

    if not any(t.dep_ in ("nsubj", "nsubjpass") and first_person(t) for t in clause):
        return []
    asked = {t.lower_ for t in clause if t.ent_type_ in _PLACE_ENTS}
    subjects = [subject_of(verb_of(t)) for t in memory if t.ent_type_ in _PLACE_ENTS and t.lower_ in asked]
    return subjects if subjects and all(s is not None and not first_person(s) for s in subjects) else []


def _of_someone_else(clause: list, memory) -> list:  # noqa: ANN001 - spaCy Tokens and Doc
    """The question asks it of the speaker, or of someone of theirs ("am I retired?", "is my mum in
    hospital?") and the memory says it only of someone else ("my dad retired", "my mum's best friend is
    in hospital"): every verb, adjective or state of the question's that the memory says too has a
    subject there, and none of them is the one asked of. Those subjects, or none."""
    from interaction.offline.grounding import first_person
    from interaction.offline.parsing import doer_of, of_having, verb_of

    asked_of = next((t for t in clause if t.dep_ in ("nsubj", "nsubjpass")), None)
    if asked_of is None or not first_person(asked_of) and asked_of.pos_ not in ("NOUN", "PROPN"):
        return []
    # ... or what they are asked to be ("am I a surgeon?" over "he works as a surgeon there"), or where
    # ("in hospital", not when), or how old; never "have", which the thing had has too ("do I have a son?"
    # over "my son Youssef has his exams")
    said = [m for t in clause if (t.pos_ in ("VERB", "ADJ") and t.dep_ != "aux" and not of_having(t)
                                  or t.dep_ == "attr" and t.pos_ == "NOUN" or _an_age(t, asked_of) or _a_state_where(t))
            for m in memory if _the_same_word(m, t)]
    # ... but what they are asked to have, where the memory has someone have it ("do I have a dentist
    # appointment on Monday?" over "my friend Yaw has a dentist appointment on Monday")
    said += [m.head for t in clause if t.dep_ == "dobj" and of_having(t.head)
             for m in memory if m.dep_ == "dobj" and of_having(m.head) and lemma_meant(m) == lemma_meant(t)]
    subjects = [doer_of(verb_of(m)) for m in said]
    if first_person(asked_of):
        # one of several said together may be the speaker ("my partner Diane and I got married")
        return subjects if said and all(s is not None and not any(first_person(w) for w in (s, *s.conjuncts))
                                        for s in subjects) else []
    # whom each is said of, by a noun; one said of by a pronoun that names no one before it may be the
    # one asked of ("he's a firefighter" for "is my husband a firefighter?")
    told_of = [s if s is None or first_person(s) else _person_meant(s) for s in subjects]
    if said and told_of and all(s is not None and first_person(s) for s in told_of) and not any(
            m.pos_ == "NOUN" and m.lemma_ == asked_of.lemma_ or m.pos_ == "PROPN" and m.lower_ == asked_of.lower_
            for m in memory):
        # "is my son allergic to peanuts?" over "I'm allergic to peanuts": the speaker; but not where the
        # memory names the one asked of beside them ("I'm moving to Oslo with my brother")
        return told_of
    return told_of if said and all(s is not None for s in told_of) and not any(
        first_person(s) or the_same_one(asked_of, s) for s in told_of) else []


def _an_age(t, asked_of) -> bool:  # noqa: ANN001 - spaCy Tokens
    """A number said as what someone is ("I'm 71"; "is my daughter 71?", which the parser reads as a
    number of daughters), not a count of things they have."""
    return t.pos_ == "NUM" and (t.dep_ in ("attr", "acomp") or t.dep_ == "nummod" and t.head == asked_of
                                and asked_of.head.lemma_ == "be")


def _the_same_word(said, asked) -> bool:  # noqa: ANN001 - spaCy Tokens
    """The same word as meant, or a participle said as an adjective and its verb ("am I divorced?" of
    "my brother got divorced", which the tagger reads as the verb)."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    if lemma_meant(said) == lemma_meant(asked):
        return True
    wordnet = load_wordnet()
    return wordnet is not None and said.pos_ != asked.pos_ and {said.pos_, asked.pos_} == {"VERB", "ADJ"} and any(
        wordnet.verb_of_participle(a.lower_) == lemma_meant(v) for a, v in ((asked, said), (said, asked)) if a.pos_ == "ADJ")


def _a_state_where(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """A noun that says where its subject is by a copula ("is my aunt in hospital?"), not when; the
    parser may hang it on the subject of a copula that has no other complement."""
    prep = token.head
    on = prep.head
    if on.dep_ in ("nsubj", "nsubjpass") and not any(c.dep_ in ("attr", "acomp", "prep") for c in on.head.children):
        on = on.head
    return token.dep_ == "pobj" and token.pos_ == "NOUN" and token.ent_type_ not in _TIME_ENTS \
        and prep.dep_ == "prep" and on.lemma_ == "be"


def the_same_one(asked, told) -> bool:  # noqa: ANN001 - spaCy Tokens
    """The memory's subject names the one the question asks of: by the same word, one WordNet has as
    the same, a kind of it or a whole of it ("gran" for "grandma", "sibling" for "my brother Osei"), or
    by a name both give; of the same one where both say whose ("my friend" is not "my mum's friend").
    A word WordNet lacks is only itself ("sister-in-law" is no "sister")."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.grounding import first_person

    names = {t.lower_ for t in (asked, *asked.children) if t.pos_ == "PROPN"}
    told_names = {t.lower_ for t in (told, *told.children) if t.pos_ == "PROPN"}
    if names and told_names:
        return bool(names & told_names)
    if asked.pos_ == "PROPN" or told.pos_ == "PROPN":
        return True  # a name alone against a word for someone: who it is cannot be told apart
    word, told_word = _word_of(asked), _word_of(told)
    if word != told_word:
        wordnet = load_wordnet()
        if wordnet is None or not wordnet.relation(word, told_word)[0].agrees:
            return False
    owner, told_owner = _owner(asked), _owner(told)
    if owner is None or told_owner is None or first_person(owner) and first_person(told_owner):
        return True
    return not first_person(owner) and not first_person(told_owner) and the_same_one(owner, told_owner)


def _word_of(noun) -> str:  # noqa: ANN001 - a spaCy Token
    """A noun as the word it is, hyphenated parts and all ("sister-in-law")."""
    from interaction.offline.parsing import hyphenated_end

    return "-".join(lemma_meant(t) for t in noun.doc[noun.i:hyphenated_end(noun) + 1] if t.tag_ != "HYPH")


def _owner(noun):  # noqa: ANN001, ANN202 - a spaCy Token -> Token or None
    return next((c for c in noun.children if c.dep_ == "poss"), None)


def _has_one_of(kind: str, nouns: set[str]) -> bool:
    """One of a memory's nouns is, in WordNet, a kind of the noun ("asthma" of "condition", "piano" of
    "instrument")."""
    from interaction.memory.retrieval.lexicon import a_kind_of

    return any(a_kind_of(noun, kind) for noun in nouns)


def _nouns_of_adjective(adjective) -> tuple[str, ...]:  # noqa: ANN001 - a spaCy Token
    """The nouns WordNet derives from a word as an adjective ("illness" of "ill", which the tagger may
    call a noun): what "is my nephew ill?" asks of a memory that names a kind of it ("pneumonia")."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    lexicon = load_wordnet()
    return lexicon.nouns_of_adjective(adjective.lemma_.lower()) if lexicon is not None else ()


def memory_nouns(doc) -> set[str]:  # noqa: ANN001 - a spaCy Doc
    """The things a memory names: its nouns and names as meant, and the nouns WordNet derives from its
    adjectives and verbs ("asthma" of "I'm asthmatic")."""
    return {lemma_meant(t) for t in doc if t.pos_ in ("NOUN", "PROPN")} | derived_nouns(doc)


def calls_off(about: str, memory: str) -> bool:
    """The memory tells that a thing `about` names (a yes/no question, or a memory told before) was
    called off: the object or the passive subject of a verb whose most frequent sense is that of
    "cancel" in WordNet ("the school play got cancelled", "they called off the party", "Mr Hoffman
    cancelled the meeting"). False without the parser or the lexicon."""
    from interaction.memory.retrieval.lexicon import a_kind_of, load_wordnet
    from interaction.offline.parsing import ParserUnavailable, load_parser

    lexicon = load_wordnet()
    try:
        nlp = load_parser()
    except ParserUnavailable:
        return False
    if lexicon is None:
        return False
    about_doc = nlp(about)
    asked = {lemma_meant(t) for t in about_doc if not t.is_stop and t.pos_ in ("NOUN", "PROPN")}
    # ... or what its verb does, or a kind of it, as WordNet derives nouns from the verb's most frequent
    # sense ("we called off the engagement" for "am I engaged?"; "the trip is cancelled" after "we're
    # going to Hawaii": a trip is a kind of travel); never the
    # "going" of a future ("I'm going to bake")
    done = {n for t in about_doc if t.pos_ == "VERB" and not any(c.dep_ == "xcomp" for c in t.children)
            for n in lexicon.nouns_of_verb(t.lemma_.lower(), of_its_sense=True)}
    for t in nlp(memory):
        # the thing by its head or the words compounded with it ("the leaving do": "do" is a stop word),
        # a name the tagger took for an adjective too ("the Menorca holiday")
        if t.dep_ not in ("dobj", "nsubjpass", "nsubj") or not (asked & {
                lemma_meant(t), *(lemma_meant(w) for w in t.lefts if w.dep_ in ("compound", "amod"))}
                or t.pos_ == "NOUN" and (lemma_meant(t) in done or any(a_kind_of(lemma_meant(t), n) for n in done))):
            continue
        verb = t.head
        if t.dep_ == "nsubj":
            # ... or said to be in the state of one, by a word one of whose senses is "cancelled" ("the
            # trip is off")
            if verb.lemma_ == "be" and any(c.dep_ in ("acomp", "advmod", "prt") and lexicon.may_mean(c.lower_, "cancelled")
                                           for c in verb.children):
                return True
            continue
        particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), None)
        if lexicon.means_first("_".join(filter(None, (verb.lemma_.lower(), particle))), "cancel"):
            return True
    return False


def denies_what_is_asked(question: str, memory: str) -> bool:
    """The memory says a content word the yes/no question asks about under a negation ("he must not
    eat too much spinach" for "can he eat spinach?"), or by a verb the question does not ask with ("Leo
    quit piano" for "does Leo still have piano?", "the gig got cancelled" for "is the gig still on?"): no
    yes can be read off it, whatever else it says.
    False without the parser."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return False
    q = nlp(question)
    asked = {lemma_meant(t) for t in q if not t.is_stop and t.pos_ in ("NOUN", "PROPN", "VERB", "ADJ")}
    verbs = {t.lemma_.lower() for t in q if t.pos_ in ("VERB", "AUX")}
    m = nlp(memory)
    if any({lemma_meant(w) for w in t.head.subtree} & asked for t in m if t.dep_ == "neg"):
        return True
    # a thing asked of, the object or the subject of another verb in the memory than the question's:
    # what was done to it or what it did ("the gig got cancelled" for "is the gig still on?")
    if any(t.dep_ in _ROLES and t.pos_ == "NOUN" and lemma_meant(t) in asked and t.head.pos_ == "VERB"
           and t.head.lemma_.lower() not in verbs | _HOLDING for t in m):
        return True
    # ... or said to be in a state by a word the question does not ask with ("the concert is off" for
    # "is the concert still on?")
    said = {t.lemma_.lower() for t in q}
    return any(t.dep_ in _ROLES and t.pos_ == "NOUN" and lemma_meant(t) in asked and t.head.lemma_ == "be"
               and any(c.dep_ in _STATES and c.lemma_.lower() not in said for c in t.head.children) for t in m)


def told_as_wished(memory: str) -> bool:
    """The memory tells what would be, not what is: a "would" under an "if" ("if I won the lottery I'd
    sail to Greece"). False without the parser."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        m = load_parser()(memory)
    except ParserUnavailable:
        return False
    return any(t.dep_ == "mark" and t.lower_ == "if" for t in m) and any(t.tag_ == "MD" and t.lemma_ == "would" for t in m)


def only_intended_then(question: str, memory: str) -> bool:
    """What a question of now asks after ("are we still going to Lisbon?") the memory names only as a
    plan as it stood before ("I was meant to go to Lisbon in March but that's off now":
    parsing.intended_then). False without the parser."""
    from interaction.offline.parsing import ParserUnavailable, asked_of_the_past, intended_then, load_parser

    try:
        nlp = load_parser()
        q, m = nlp(question), nlp(memory)
    except ParserUnavailable:
        return False
    if asked_of_the_past(q):
        return False
    asked = {t.lower_ for t in q if t.pos_ in ("NOUN", "PROPN") and t.dep_ not in ("nsubj", "nsubjpass")}
    said = [t for t in m if t.lower_ in asked]
    return bool(said) and all(intended_then(t) for t in said)


def still_to_come(question: str, memory: str, told_on: datetime | None, now: datetime) -> bool:
    """The memory tells a doing still ahead, in progress toward a time not yet come ("next month I'm
    running the Berlin marathon", "I'm getting a puppy this week"), and the question asks of now or
    before ("have I run the marathon yet?", "do I have a dog?"), not of the plan ("am I running it?",
    "will I get one?"). A state told with a time ("I have a dentist appointment on Tuesday") holds now.
    False without the parser."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    if told_on is None:
        return False
    try:
        nlp = load_parser()
        q, m = nlp(question), nlp(memory)
    except ParserUnavailable:
        return False
    root = next((t for t in q if t.dep_ == "ROOT"), None)
    if root is None or root.tag_ == "VBG" or any(t.tag_ == "MD" for t in q):
        return False
    ahead = any(t.tag_ == "VBG" and any(a.dep_ == "aux" and a.lemma_ == "be" and a.tag_ in ("VBZ", "VBP") for a in t.children)
                for t in m)
    told = named_time(m, told_on) if ahead else None
    return told is not None and not told.passed(now) and (told.at or told.end) > told_on


# the negative quantifiers of English grammar, which say of no one what the verb tells
_NO_ONE = frozenset({"nobody", "nothing", "none", "noone"})


def _done_to_no_one(q, m, wordnet) -> bool:  # noqa: ANN001 - spaCy Docs, a WordNet
    """The question asks whether anyone or anything did or underwent something ("was anyone hurt?",
    "did anybody get hurt?": an indefinite pronoun its subject) and the memory says no one did, by the
    same doing ("Nobody hurt, thank God.", "No one was injured.")."""
    def doing(verb) -> set[str]:  # noqa: ANN001 - a spaCy Token
        lemma = verb.lemma_.lower()
        return {lemma, *wordnet.nouns_of_verb(lemma)}

    def by_no_one(subject) -> bool:  # noqa: ANN001 - a spaCy Token
        return subject.lower_ in _NO_ONE or any(c.dep_ == "det" and c.lower_ == "no" for c in subject.children)

    subjects = ("nsubj", "nsubjpass")
    asked = [t.head for t in q if t.dep_ in (*subjects, "acl") and t.pos_ == "PRON"
             and "Ind" in t.morph.get("PronType") and t.head.pos_ == "VERB"]
    asked += [t for t in q if t.dep_ == "acl" and t.pos_ == "VERB" and t.head.pos_ == "PRON"
              and "Ind" in t.head.morph.get("PronType")]  # "was anyone hurt": the participle hangs on "anyone"
    told = [t.head for t in m if t.dep_ in subjects and by_no_one(t) and t.head.pos_ == "VERB"]
    return any(doing(a) & doing(b) for a in asked for b in told)


def _parsed_with_wordnet(question: str, memory: str):  # noqa: ANN202 - (Doc, Doc, WordNet) or None
    """The question's and the memory's parses, and WordNet; None when either cannot load."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.parsing import ParserUnavailable, load_parser

    wordnet = load_wordnet()
    try:
        nlp = load_parser()
    except ParserUnavailable:
        return None
    return (nlp(question), nlp(memory), wordnet) if wordnet is not None else None


def someone_asked_of_is_untold(question: str, memory: str) -> bool:
    """A yes/no question whether anyone did or was something ("was anyone else in the car with Felix?":
    an indefinite pronoun of a person, "-one" or "-body", its subject) over a memory that tells of no
    person but those the question names, their own words for them ("my grandson Felix") and the speaker:
    no one else is told of, so nothing says yes. False without the parser."""
    parsed = _parsed_with_wordnet(question, memory)
    if parsed is None:
        return False
    q, m, wordnet = parsed
    if not any(t.dep_ in ("nsubj", "nsubjpass") and t.pos_ == "PRON" and t.morph.get("PronType") == ["Ind"]
               and t.lower_.endswith(("one", "body")) for t in q):
        return False
    named = {t.lower_ for t in q if t.pos_ == "PROPN"}

    def a_person(t) -> bool:  # noqa: ANN001 - a spaCy Token
        return t.ent_type_ == "PERSON" or t.pos_ == "PROPN" or (t.pos_ == "NOUN" and wordnet.kind_of_person(t.lemma_.lower()))

    def of_the_named(t) -> bool:  # noqa: ANN001 - a spaCy Token
        return t.lower_ in named or any(w.lower_ in named for w in (t.head, *t.children) if w.dep_ in ("appos", "compound")
                                         or t.dep_ in ("appos", "compound"))
    return not any(a_person(t) and not of_the_named(t) for t in m)


def denied_outright(question: str, memory: str) -> bool:
    """The memory says no to a yes/no question about what the speaker does or has: it tells the same
    verb of them negated ("I don't have any kids" for "do I have children?"), or that they left what is
    asked, by a verb of parting (WordNet) done to it or to the doing itself ("I quit smoking" for "do I
    smoke?", "I quit my job at the bank" for "do I still work at the bank?"), or its opposite ("I failed
    my driving test" for "did I pass it?"). False without the parser."""
    from interaction.memory.retrieval.lexicon import Relation
    from interaction.offline.parsing import of_having, subject_of

    parsed = _parsed_with_wordnet(question, memory)
    if parsed is None:
        return False
    q, m, wordnet = parsed
    if _as_it_used_to_be(q, m) or _done_to_no_one(q, m, wordnet):
        return True
    verb = next((t for t in q if t.dep_ == "ROOT" and t.pos_ == "VERB"), None)
    subject = subject_of(verb) if verb is not None else None
    if subject is None or "1" not in subject.morph.get("Person"):
        return False
    things = {lemma_meant(t) for t in q if t.pos_ == "NOUN" and t.dep_ in ("dobj", "pobj")}
    doings = {verb.lemma_.lower(), *wordnet.nouns_of_verb(verb.lemma_.lower())}

    def names_it(word: str) -> bool:
        return word in things | doings or any(
            wordnet.relation(word, t)[0] in (Relation.SAME, Relation.BROADER, Relation.NARROWER) for t in things)

    for said in m:
        own = subject_of(said)
        if said.pos_ != "VERB" or own is None or "1" not in own.morph.get("Person"):
            continue
        negated = any(c.dep_ == "neg" for c in said.children)
        objects = {lemma_meant(t) for t in said.subtree if t.dep_ in ("dobj", "pobj", "xcomp") and t.i != said.i}
        if negated and said.lemma_.lower() == verb.lemma_.lower() and (not things or any(map(names_it, objects))):
            return True
        # ... or has none of the thing asked, by the negating determiner ("a younger brother and no
        # sisters" for "do I have a sister?")
        if said.lemma_.lower() == verb.lemma_.lower() and any(
                t.dep_ in ("dobj", "conj") and names_it(lemma_meant(t)) and any(c.dep_ == "det" and c.lower_ == "no" for c in t.children)
                for t in said.subtree):
            return True
        # ... or the opposite done to it, as WordNet opposes the two verbs ("I failed my driving test" for
        # "did I pass my driving test?")
        if not negated and said.lemma_.lower() in wordnet.verb_antonyms(verb.lemma_.lower()) \
                and (not things or any(map(names_it, objects))):
            return True
        particle = next((c.lemma_ for c in said.children if c.dep_ == "prt"), None)  # "gave up smoking"
        parting = f"{said.lemma_}_{particle}" if particle else said.lemma_
        if not negated and wordnet.parts_from_an_association(parting.lower()) and any(map(names_it, objects)):
            return True
    # ... or, said with no verb after what they have, none of the thing asked ("and no brothers" after "I
    # have two sisters", for "do I have a brother?")
    root = next((t for t in m if t.dep_ == "ROOT"), None)
    return of_having(verb) and root is not None and root.pos_ == "NOUN" and names_it(lemma_meant(root)) \
        and any(c.dep_ == "det" and c.lower_ == "no" for c in root.children)


def _as_it_used_to_be(q, m) -> bool:  # noqa: ANN001 - spaCy Docs
    """The memory tells, by "used to", what the speaker did or was ("I used to be a postman for forty
    years"), and the question asks of now whether they still do or are what it names ("do I still work
    as a postman?", "am I a postman?"): no. Asked of the past ("did I use to be a postman?"), not."""
    from interaction.offline.grounding import first_person
    from interaction.offline.parsing import subject_of

    root = next((t for t in q if t.dep_ == "ROOT"), None)
    if root is None or root.tag_ == "VBD" or any(c.dep_ == "aux" and c.tag_ == "VBD" for c in root.children):
        return False
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    subject = subject_of(root)
    # a doing asked of is asked by the nouns WordNet derives from it too ("am I still teaching?" of "a
    # teacher")
    asked = {w for t in q if t.pos_ in ("NOUN", "PROPN") for w in (lemma_meant(t), t.lower_)} | (
        set(wordnet.nouns_of_verb(root.lemma_.lower())) if wordnet is not None and root.pos_ == "VERB" else set())
    if subject is None or not first_person(subject) or not asked:
        return False
    return any(said.lemma_ == "use" and said.tag_ == "VBD" and (own := subject_of(said)) is not None and first_person(own)
               and asked & {w for done in said.children if done.dep_ == "xcomp"
                            for t in done.subtree if t.pos_ in ("NOUN", "PROPN") for w in (lemma_meant(t), t.lower_)}
               for said in m)


def derived_nouns(doc) -> set[str]:  # noqa: ANN001 - a spaCy Doc
    """The nouns WordNet derives from the memory's adjectives and verbs: "do I have any allergy?" asks
    what "I'm allergic to peanuts" says."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    lexicon = load_wordnet()
    if lexicon is None:
        return set()
    return {n for t in doc for n in (_nouns_of_adjective(t) if t.pos_ == "ADJ"
                                     else lexicon.nouns_of_verb(t.lemma_.lower()) if t.pos_ == "VERB" else ())}


def _of_telling(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is not None and verb.pos_ == "VERB" and wordnet.verb_lexical_file(verb.lemma_) in _TELLING


def _when_told(ent) -> bool:  # noqa: ANN001 - a spaCy Span
    """The time is when something was told or remembered, not a value asked ("did I tell you yesterday
    about ...?"): it hangs on a verb whose most frequent WordNet sense is of telling or knowing."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.parsing import verb_of

    verb = verb_of(ent.root)
    wordnet = load_wordnet()
    return wordnet is not None and verb.pos_ in ("VERB", "AUX") and wordnet.verb_lexical_file(verb.lemma_) in _TELLING


def _numbers(doc, now: datetime) -> set[str]:  # noqa: ANN001 - a spaCy Doc
    """The numbers a text says that are not part of a date or time ("number 112", "two cats")."""
    times = [e for e in doc.ents if e.label_ in _TIME_ENTS and not _a_number(e, now)]
    return {t.lower_ for t in doc if t.like_num and not any(t in e for e in times)}


def _a_number(ent, now: datetime) -> bool:  # noqa: ANN001 - a spaCy Span
    """A number the entity recogniser took for a date or time but the calendar cannot read as one
    ("the code is 4417")."""
    return _day_of(ent.text, now) is None and any(t.like_num for t in ent)


def _a_date(ent, now: datetime) -> bool:  # noqa: ANN001 - a spaCy Span
    """A date or time the question asks ("tomorrow", "in March", "on the 19th"), not a number the
    entity recogniser took for one."""
    return ent.label_ in _TIME_ENTS and not _a_number(ent, now) or not ent.label_  # a span of days_alone


def _day_of(text: str, now: datetime) -> tuple[int | None, int | None] | None:
    """The month a date names and its day of the month when it names one ("the 19th": its day
    alone); None when unread."""
    found = calendar().nlp_at(text, now)
    if not found:  # "the 19th" (never a count: "30 years" is read as a time)
        alone = ORDINAL_DAY.search(text)
        return (None, int(alone.group(1))) if alone else None
    said = DAY_OF_MONTH.search(text)  # "the 28th of February": parsedatetime reads the month alone
    point, context, *_ = found[0]
    if not context.accuracy & (OF_A_DAY | _ACU.ACU_MONTH):
        return None
    day = point.day if context.accuracy & OF_A_DAY else int(said.group(1)) if said else None
    return point.month, day


def _in_the_past(doc) -> bool:  # noqa: ANN001 - a spaCy Doc
    return any(t.tag_ in ("VBD", "VBN") and t.pos_ in ("VERB", "AUX") for t in doc)


def _from_today(text: str, now: datetime, past: bool = False) -> tuple[datetime, datetime] | None:
    """The stretch of the calendar a date said from today names ("tomorrow": that day, "this week":
    Monday to Sunday), seen from the day people speak of; None for a date named by the calendar
    ("in March", "on the 19th"), which reads as the same month whenever it is said. `past`: asked in
    the past tense, a day of the week is the one before ("was it on Monday?")."""
    # read from the day people speak of: at 1 a.m. "tomorrow" is the day after the one just ending, and
    # "on Wednesday" the Wednesday to come from it (shifting the day read from the clock's date instead
    # moved a weekday named after midnight to the day before it)
    spoken = now - timedelta(days=(now.date() - spoken_day(now)).days)
    found = calendar().nlp_at(text, spoken)
    later = calendar().nlp_at(text, spoken + _A_SEASON)
    if not found or (later and later[0][0].month == found[0][0].month):
        return None
    point, context, *_ = found[0]
    precision = precision_of(context)
    if precision is None or context.accuracy & _ACU.ACU_NOW:
        return None
    if context.accuracy & _ACU.ACU_DAY and past and 0 < (point.date() - spoken_day(now)).days <= 7:
        point -= timedelta(days=7)
    elif _a_weekday_alone(text) and (point.date() - spoken_day(now)).days == 7:
        point -= timedelta(days=7)  # "do I have the dentist on Monday?" asked on a Monday: today
    start, end, _ = unit_window(point, precision)
    return start, end


def _a_weekday_alone(text: str) -> bool:
    """The date is a day of the week named alone ("Monday", "on Monday"; not "next Monday")."""
    words = text.casefold().split()
    return bool(words) and words[-1] in {d.casefold() for d in std_calendar.day_name} and (
        len(words) == 1 or len(words) == 2 and words[0] == "on")


def _same_date(asked: str, now: datetime, told: ToldTime | None, past: bool) -> Verdict:
    if told is None:
        return "unsure"
    stretch = _from_today(asked, now, past)
    if stretch is not None:
        start, end = (told.at, told.at + timedelta(microseconds=1)) if told.at else (told.start, told.end)
        if stretch[0] <= start and end <= stretch[1]:
            return "yes"
        return "no" if end <= stretch[0] or start >= stretch[1] else "unsure"
    question = _day_of(asked, now)
    memory = (told.start.month, told.start.day if told.a_day else None) \
        if told.a_day or told.end - told.start <= timedelta(days=31) else None
    if question is None or memory is None:
        return "unsure"
    if question[0] is not None and question[0] != memory[0]:
        return "no"
    if question[1] is None or memory[1] is None:
        return "yes" if question[1] is None else "unsure"
    return "yes" if question[1] == memory[1] else "no"


def asks_from_today(question: str, now: datetime) -> bool:
    """The question asks a date said from today ("is my flight tomorrow?", "was it this week?")."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        q = load_parser()(question)
    except ParserUnavailable:
        return False
    return any(_a_date(e, now) and not _when_told(e) and _from_today(e.text, now) is not None
               for e in [*q.ents, *days_alone(q)])


def _same_place(asked, m) -> Verdict:  # noqa: ANN001 - a spaCy Span and Doc
    from interaction.memory.retrieval.lexicon import Relation, load_wordnet

    places = [e for e in m.ents if e.label_ in _PLACE_ENTS]
    if not places:
        return "unsure"
    if asked.text.lower() in m.text.lower():
        return "yes"
    wordnet = load_wordnet()
    related = {wordnet.relation(asked.root.lemma_.lower(), p.root.lemma_.lower())[0] for p in places} \
        if wordnet is not None else set()
    if related & {Relation.SAME, Relation.BROADER}:
        return "yes"  # "am I in Spain?" over Madrid
    # a place within one told ("did I go to Osaka?" over a trip to Japan) may or may not have been where
    # they were: what was told says neither
    return "unsure" if Relation.NARROWER in related else "no"
