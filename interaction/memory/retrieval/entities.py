"""What a recall question asks about, and whether a memory is about the same thing.

spaCy's parse reads the things a text names (its mentions): every noun or name that heads a phrase,
with its compounds ("driving test"; a name with the names before it, "South America"), and whose it
is — the possessor ("my neighbour's cat": the cat's possessor is the neighbour, the neighbour's is
the speaker), or the speaker when a relative clause says the speaker did it ("the trip I took").
Dates, numbers and counted units of time ("how many days") are the time window's business, not a
topic, and are left out (spaCy's entity types, parsedatetime's units). A compound's modifiers are
things the text names too ("my cello exam" names a cello), though a question asking of the exam
does not ask of the cello; only in a sentence that tells, and only the speaker's or no one's ("how was your tennis match?" names no tennis of the speaker's). So does a
verb of a sentence that tells name its event, by the nouns WordNet derives from it, whose its doer
is ("I climbed Kilimanjaro" names the speaker's climb: "do you remember the big climb I did?"); such
a noun agrees only as the same thing asked. A verb of knowing or telling gives its subject nothing
("do you remember the wedding?" asks of no wedding of the listener's). Nor does a
question ask of what frames it (a told
or thought noun whose own complement says what it is about: "any idea what my brother did", "the
news about my job").

A question's mention and a memory's are compared by what their head phrases mean (WordNet's noun
hierarchy, lexicon.py): the same thing, a kind or a whole of it ("my kid" for "my son", "Japan" for
"Tokyo"), or a sister word ("my cousin" for "my aunt", "my daughter" for "my son"). A sentence
embedding cannot tell these apart (MiniLM: "kid"-"daughter" 0.53, "daughter"-"son" 0.52); where
WordNet knows neither phrase the MiniLM cosine decides, and a close cosine also agrees where WordNet
files two words apart ("pet" / "dog" 0.80) unless WordNet has them as direct sisters ("mother" /
"father" 0.73). Possessors are people and compared the same way; names only agree with the same name
or what WordNet contains them in. The thresholds are chosen on dev by scripts/eval/calibrate_recall.
The question's mention then

- agrees with the memory when some mention of the memory has an agreeing head and a compatible
  possessor (the same one, or one the memory leaves unsaid or gives as a pronoun);
- conflicts when none agrees but the memory names a sister word with a compatible possessor ("my
  cousin" against "my aunt", "my mother's ashes" against "my father's ashes" through the possessor),
  the same head with another possessor ("my son's tooth" against "my daughter's tooth", "my
  neighbour's dog" against "our dog", "my brother's job" against "my brother's wife got a job":
  without a possessor, a thing is the subject's that got it; "my race" against "your race was
  amazing!", said to someone else about theirs), something else in the same frame
  said by name ("my neighbour's car" against "my neighbour's dog"; not "my", which nearly
  everything a person tells has), or something else in the same place of the same verb ("did the
  landlord fix the boiler?" against "my landlord fixed the leaking roof", "cutting down on alcohol"
  against "cut down on sugar", "what did my cousin win?" against "my aunt won a prize");
- conflicts whatever it names when the question asks of the speaker (a first-person pronoun) and
  the memory's pronouns speak only of the listener (persons.py: "that painting is awesome! What
  inspired you?" is not about "my painting", though no possessor says whose it is);
- has a rival otherwise when the memory names a sister word of another owner's (a feature the
  decision weighs);
- is absent otherwise.

Parses and head-phrase vectors are kept per text: a memory is read once however often it is asked about.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np
from cachetools import LRUCache

from interaction.memory.retrieval.lexicon import Relation, WordNet, load_wordnet
from interaction.memory.retrieval.persons import Persons, read_persons
from interaction.memory.time_window import a_length_of_time
from interaction.offline.parsing import name_beside, noun_named
from interaction.offline.question_form import sentence_asks

log = logging.getLogger("nadine.memory.entities")

SPEAKER = "\u0001speaker"  # my / our / I / we: the person talking (never a word of the text)
_SPEAKER_WORDS = {"i", "my", "mine", "me", "we", "our", "ours", "us", "myself", "ourselves"}
# your / you: whom the person was talking to when they said it. Never the speaker: "your new job
# sounds great" tells of the listener's job, not of one the speaker has
LISTENER = "\u0001listener"
_LISTENER_WORDS = {"you", "your", "yours", "yourself", "yourselves"}
PEOPLE = (SPEAKER, LISTENER)
# his / her / their / its: someone the text does not name, who is neither the speaker nor the listener
# ("his birthday" of the eldest son is no answer to "when is my birthday?")
SOMEONE = "\u0001someone"
_NOUNS = {"NOUN", "PROPN"}
_NOT_TOPICS = {"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY"}
_PHRASE_DEPS = {"compound"}  # "driving test", "bank job": part of what the head names


@dataclass(frozen=True)
class Mention:
    head: str  # the head phrase, lemmatised and lower-cased ("driving test"), or a name as written
    possessor: str | None  # SPEAKER, LISTENER, SOMEONE (a third person's pronoun), a possessor's lemma, or None (unsaid)
    name: bool = False  # a proper name: agrees only with the same name
    owner: str | None = None  # without a possessor: the subject that got, lost or did it ("my brother's wife got a job")
    # the verb it is an argument of and how ("fix", "obj"; "cut", "on"): two texts naming two things
    # in one frame ("fix the boiler" / "fixed the roof") speak of different things
    frame: tuple[str, str] | None = field(default=None, compare=False)
    # the other way the same one is called in apposition ("my brother Tomas": "tomas" for "brother"
    # and "brother" for "Tomas"), lower-cased: one of them agreeing is the one asked about agreeing
    alias: str | None = field(default=None, compare=False)
    # the same for whose it is: "Luca" for "my brother Luca's exam", "brother" for "Luca's" when the
    # text calls him both ways; written as possessor is
    whose_alias: str | None = field(default=None, compare=False)
    # what a question asks about; False for what the text names without asking about it: a modifier
    # of a compound ("cello" of "cello exam": the memory names a cello, the question asks of the
    # exam) and a word framing the question ("any idea what ...", "the news about ...")
    topic: bool = field(default=True, compare=False)
    # a noun WordNet derives from a verb the text tells with ("climb" of "I climbed"): a string of
    # the verb's sense, whose other senses may be anything ("signature" of "signed" is also a key
    # signature, a kind of music), so it agrees only as the same thing asked
    event: bool = field(default=False, compare=False)
    # the adjectives said of it, lemmatised ("old" of "the old case number"): one the other text says
    # the opposite of (WordNet's antonyms) makes the same head another one of its kind
    qualities: tuple[str, ...] = field(default=(), compare=False)
    # which one of its kind the question asks ("which team do I support?"): a name in its place is
    # the answer, not another thing in the same frame
    which: bool = field(default=False, compare=False)
    # brought in by an indefinite article ("I went for a run"): one of its kind the text tells of anew,
    # not one told of before
    new: bool = field(default=False, compare=False)
    # a doing asked of whoever did it ("who died?", "who got married?"): the same event told of anyone
    # is what is asked about
    whoever: bool = field(default=False, compare=False)

    @property
    def whose(self) -> tuple[str, ...]:
        """Every way the text calls whose it is (possessor or owner, and its alias)."""
        # "Luca passed his test": the one who did it is whose "his" is
        said = self.owner if self.possessor == SOMEONE and self.owner else self.possessor or self.owner
        return () if said is None else (said,) if self.whose_alias is None else (said, self.whose_alias)


@dataclass(frozen=True)
class Comparison:
    """A question's mentions against one memory's."""

    asked: int  # the question's mentions
    agreeing: int
    conflicting: int
    agreement: float  # mean over the question's mentions of the best head cosine in the memory (0: none asked)
    names_missing: int  # names of the question the memory does not contain
    rivals: int = 0  # of the absent ones, those whose head has a sister word in the memory
    # the question asks of the speaker's own life and the memory speaks of its listener's alone
    # (persons.py): "what inspired my painting?" against "that painting is awesome! What inspired you?"
    to_listener: bool = False
    # of the agreeing ones, those agreeing with a thing the memory tells of (not one it names in
    # passing or an event its verb names) and not brought in anew ("a run" against "I ran the Lisbon
    # marathon": a kind of it, but another one)
    told_of: int = 0

    @property
    def conflict(self) -> bool:
        return self.conflicting > 0 or self.to_listener

    @property
    def absent(self) -> int:
        return self.asked - self.agreeing - self.conflicting


NO_COMPARISON = Comparison(0, 0, 0, 0.0, 0)


def _possessor(token) -> str | None:
    for child in token.children:
        if child.dep_ == "poss":
            word = child.lower_
            if word in _SPEAKER_WORDS:
                return SPEAKER
            if word in _LISTENER_WORDS:
                return LISTENER
            if child.pos_ in _NOUNS:
                return _name(child) if child.pos_ == "PROPN" else child.lemma_.lower()
            return SOMEONE  # his / her / their: someone else, whom the text does not resolve here
        if child.dep_ == "relcl" and any(g.dep_ in ("nsubj", "nsubjpass") and g.lower_ in _SPEAKER_WORDS
                                         for g in child.children):
            return SPEAKER  # "the trip I took"
    # whose the whole phrase is: the small tagger hangs "my" of "my front door code" on "door"
    first = next((c for c in token.lefts if c.dep_ == "compound"), None)
    return _possessor(first) if first is not None else None


# verbs of knowing and telling (WordNet's lexicographer files): the listener they are put to
# remembers, knows or tells of a thing and has it no more than the one asking ("do you remember the
# wedding?" asks of no wedding of the listener's)
_NOT_HAVING = frozenset({"verb.cognition", "verb.communication"})


def _knows_or_tells(verb, lexicon: WordNet | None) -> bool:
    return lexicon is not None and lexicon.verb_lexical_file(verb.lemma_.lower()) in _NOT_HAVING


def _owner(token, lexicon: WordNet | None = None) -> str | None:
    """Whose a thing is when no possessor says it: the subject of the verb it is the object of; and
    anything in a clause whose subject is "you" is the listener's ("did you and Max have fun on the
    camping trip?", "you must be proud of the garden"); never through a verb of knowing or telling
    whose subject is the listener: what the speaker asks the listener to remember or tell is the
    speaker's to ask about, while what the speaker says they mention or know is still theirs."""
    if token.dep_ in ("dobj", "attr") and token.head.pos_ in ("VERB", "AUX"):
        for child in token.head.children:
            if child.dep_ == "nsubj":
                if child.lower_ in _SPEAKER_WORDS:
                    return SPEAKER
                if child.lower_ in _LISTENER_WORDS:
                    return None if _knows_or_tells(token.head, lexicon) else LISTENER
                if _worked_on(child) is not None:  # "what code unlocks my phone?": which one, not whose
                    return None
                return child.lemma_.lower() if child.pos_ == "NOUN" else child.text if child.pos_ == "PROPN" else None
    clause = next((t for t in token.ancestors if t.pos_ in ("VERB", "AUX")), None)
    if clause is not None and not _knows_or_tells(clause, lexicon) and any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ in _LISTENER_WORDS
                                  for c in clause.children):
        return LISTENER
    return None


def _frame(token) -> tuple[str, str] | None:
    """The verb a noun is the subject, object or phrasal verb's object of, with that role; None under
    a verb as light as "have", "get" or "say" (spaCy's stop words: it frames nearly anything)."""
    if token.dep_ in ("nsubj", "nsubjpass", "dobj"):
        verb, role = token.head, "subj" if token.dep_.startswith("nsubj") else "obj"
    elif token.dep_ == "pobj" and token.head.dep_ == "prep" and any(c.dep_ == "prt" for c in token.head.head.children):
        # the object of a phrasal verb's preposition ("cut down on sugar", "run out of bread"); other
        # prepositions place or time it, and two places can be one ("on my commute" / "on the train")
        verb, role = token.head.head, token.head.lower_
    else:
        return None
    if verb.pos_ != "VERB" or verb.vocab[verb.lemma_.lower()].is_stop:  # "getting" is "get"
        return None
    return verb.lemma_.lower(), role


def _head_phrase(token, lexicon: WordNet | None = None) -> str:
    """The head with the nouns and gerunds before it that say which one ("driving exam", "swimming
    race"; spaCy files a gerund as a compound or an adjectival modifier), not its adjectives ("new"),
    and the thing a preposition after it says it is of or for, said as a compound is ("the code for
    the alarm" is the alarm code, "the key to the shed" the shed key)."""
    parts = _which_one(token)
    # a gerund keeps its -ing: "driving test" is how WordNet and the memory say it, "drive test" neither
    words = [c.lower_ if c.tag_ == "VBG" else c.lemma_.lower() for c in parts] + [token.lemma_.lower()]
    of = _of_which(token, lexicon)
    return " ".join(([_head_phrase(of, lexicon)] if of is not None else []) + words)


def _which_one(token) -> list:  # noqa: ANN001 - a spaCy Token
    """The nouns and gerunds before the head that say which one, with those before each of them in
    turn ("bike lock code": a code of a bike lock, not of a gate's lock)."""
    parts = [c for c in token.children if c.i < token.i and (
        (c.dep_ in _PHRASE_DEPS and c.pos_ in _NOUNS | {"VERB"}) or (c.dep_ == "amod" and c.tag_ in ("VBG", "NN")))]
    return [w for c in parts for w in (*_which_one(c), c)]


def _runs_on(token):  # noqa: ANN202 - a spaCy Token or None
    """The common noun right after a common noun that the small parser files as its apposition with
    nothing between them ("my book club meet": "club"): the head of one compound, which an apposition
    set off by no comma never is."""
    after = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
    if after is None or after.head.i != token.i or after.dep_ != "appos":
        return None
    return after if token.pos_ == after.pos_ == "NOUN" else None


_OF_WHICH = {"of", "for", "to", "in"}
# what a field of knowledge or of skill is to WordNet (its most frequent sense's lexicographer file):
# "in" says which one of those ("an exam in biology", "a course in French")
_FIELDS = frozenset({"noun.cognition", "noun.communication", "noun.act"})
# what a word names when it names a thing one can point at (WordNet's lexicographer files of its most
# frequent noun sense): such an adjective says which one ("the front door"), others only describe it
_THING_FILES = frozenset({"noun.artifact", "noun.location", "noun.object", "noun.body", "noun.substance",
                          "noun.food", "noun.plant", "noun.animal"})
# heads that in some sense count or gather what "of" names ("a cup of tea" is no tea cup, "a group of
# friends" no friend group); "for" and "to" never count ("the key to the shed")
_COUNTING = {"noun.quantity", "noun.group"}


def _of_which(token, lexicon: WordNet | None):  # noqa: ANN202 - a spaCy Token or None
    """The common noun a preposition right after the head says it is of or for ("the PIN for the
    garage door", "the code of my bike lock"); None where WordNet is not loaded, or where either is a
    person, whose "of" says whose, not which ("the mother of my friend", "the present for my aunt")."""
    prep = next((c for c in token.rights if c.dep_ == "prep"), None)
    asked = _worked_on(token)
    if lexicon is None or (asked is None and (prep is None or prep.lower_ not in _OF_WHICH)):
        return None
    head = token.lemma_.lower()
    if lexicon.lexical_file(head) == "noun.person" or (
            asked is None and prep.lower_ == "of" and _COUNTING & set(lexicon.lexical_files(head))):
        return None
    of = asked if asked is not None else next((c for c in prep.children if c.dep_ == "pobj"), None)
    if of is None or of.pos_ != "NOUN" or of.is_stop or of.ent_type_ in _NOT_TOPICS:
        return None
    kind = lexicon.lexical_file(of.lemma_.lower())
    if asked is None and prep.lower_ == "in" and kind not in _FIELDS:
        return None  # "in" says which one only of a field ("an exam in biology"), never of where or when
    return of if kind not in (None, "noun.person") else None


def _worked_on(token):  # noqa: ANN202 - a spaCy Token or None
    """What a thing asked by "which" or "what" is said to work on ("what code unlocks my phone?",
    "which key opens the shed?": the phone, the shed): the object of the verb it is the subject of,
    which says which one it is as "the code for my phone" does."""
    if token.dep_ != "nsubj" or token.head.pos_ != "VERB" or not any(
            c.dep_ == "det" and c.tag_ in ("WDT", "WP") for c in token.children):
        return None
    return next((c for c in token.head.children if c.dep_ == "dobj"), None)


def _owning_thing(token, lexicon: WordNet | None):  # noqa: ANN202 - a spaCy Token or None
    """The common noun that owns the token ("van" of "my van's alarm code") when it is no person; None
    for a person's thing ("my neighbour's cat": whose, not which), a name, or without WordNet."""
    owner = next((c for c in token.children if c.dep_ == "poss" and c.pos_ == "NOUN"), None)
    if owner is None or lexicon is None:
        return None
    return None if _a_person_word(owner.lemma_.lower(), lexicon) else owner


def _a_person_word(word: str, lexicon: WordNet) -> bool:
    """WordNet does not know the word, or files it as a person by one of its two most frequent senses
    ("mum" is a flower first, a mother second)."""
    return lexicon.lexical_file(word) in (None, "noun.person") or lexicon.kind_of_person(word, senses=2)


def _name(token) -> str:
    """A name with the names compounded before it, as written: "South America" and "New York" are one
    name each (WordNet has them as such: Peru is part of South America), "America" alone another."""
    parts = [c for c in token.lefts if c.dep_ in _PHRASE_DEPS and c.pos_ == "PROPN"]
    return " ".join([*(_name(c) for c in parts), token.text])


def _modifiers(token, mention: Mention) -> list[Mention]:
    """What a compound's modifiers name, whose the compound is ("my cello exam" names a cello too, "my
    allotment gate code" an allotment as well as a gate):
    a memory naming it tells of it, though a question asking of the exam does not ask of the cello.
    None from a sentence that asks: "how did the last game tournament go?" tells of no game."""
    if sentence_asks(token.sent):
        return []
    return [replace(mention, head=_name(c) if c.pos_ == "PROPN" else c.lemma_.lower(), name=c.pos_ == "PROPN",
                    frame=None, alias=None, topic=False)
            for c in _which_one(token) if c.dep_ in _PHRASE_DEPS and c.pos_ in _NOUNS and not c.is_stop
            and c.ent_type_ not in _NOT_TOPICS and any(ch.isalpha() for ch in c.text)]


def _doer(verb) -> tuple[str | None, str | None]:
    """Who did what a verb tells: its subject (of the verb it is conjoined to or completes: "I
    climbed it and watched the sunrise", "she got married"), as a possessor is written, and the other
    way the text calls them ("my sister Noor is getting married": "sister" and "Noor", so the wedding
    asked of as Noor's is hers); None when unsaid or a third person's pronoun."""
    while verb.dep_ in ("conj", "xcomp", "acomp") and not any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children):
        verb = verb.head
    said = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    if not said:
        return None, None
    subject = said[0]
    # "my husband and I hiked": the speaker did it too
    subjects = [subject, *subject.conjuncts]
    if any(s.lower_ in _SPEAKER_WORDS for s in subjects):
        return SPEAKER, None
    if any(s.lower_ in _LISTENER_WORDS for s in subjects):
        return LISTENER, None
    # a verb has one subject: a second right after the first is the tagger splitting one phrase ("my
    # cousin Idris is graduating" read as "cousin" and "Idris"), the same one called two ways
    split = said[1] if len(said) > 1 and said[1].i == subject.i + 1 else None
    return _as_whose(subject), _as_whose(split if split is not None else _partner(subject))


def _events(token, lexicon: WordNet | None, asked: bool = False) -> list[Mention]:
    """What a verb of a sentence that tells names as an event, by the nouns WordNet derives from it
    ("I climbed Kilimanjaro" names a climb; "we got married", no: "get" frames nearly anything), and
    an adjective said of someone the condition it derives from ("I'm allergic to peanuts": an
    allergy), whose its doer is: a question asks of events by their nouns ("the big climb I did"). Named, not told
    of, as a compound's modifiers are; not the doer ("climber"); nothing from a sentence that asks,
    unless `asked`: then only from one, each noun what is asked about (_doings_asked)."""
    if lexicon is None or token.vocab[token.lemma_.lower()].is_stop or sentence_asks(token.sent) is not asked:
        return []
    if token.pos_ == "VERB":
        nouns = lexicon.nouns_of_verb(token.lemma_.lower())
    elif token.pos_ == "ADJ" and token.dep_ == "acomp":  # what they said they are: "I'm allergic to peanuts"
        nouns = lexicon.nouns_of_adjective(token.lemma_.lower())
    else:
        return []
    doer, alias = _doer(token)
    whoever = asked and any(c.dep_ in ("nsubj", "nsubjpass") and c.tag_ == "WP" for c in token.children)
    # the gerund said as it is ("I go running") is that noun in the sense the person meant, as a
    # compound's modifier is: a kind of what is asked ("do I do any sport?"), not only the same
    return [Mention(noun, None, False, doer, whose_alias=alias, topic=asked, event=noun != token.lower_ or asked,
                    whoever=whoever)
            for noun in nouns if lexicon.lexical_file(noun) != "noun.person"]


_FRAMING_FILES = ("noun.communication", "noun.cognition")
_CLAUSES = {"relcl", "acl", "ccomp"}
# the prepositions saying what something is about; not "of", which also says of what kind ("what
# kind of books", "in terms of music": the kind is asked about)
_ABOUT = {"about", "on", "regarding", "concerning"}


def _frames_a_topic(token, lexicon: WordNet | None) -> bool:
    """A word the question is framed by, not what it asks about: something told or thought (WordNet's
    communication and cognition nouns) of no one said, whose own complement, a clause or what it is
    about, names the topic ("any idea what my brother did", "the news about my job"); "my speech at
    the wedding", "the letter from the council" and "the news" alone are asked about."""
    if lexicon is None or lexicon.lexical_file(token.lemma_.lower()) not in _FRAMING_FILES:
        return False
    if any(c.dep_ == "poss" for c in token.children):  # "the news I told you about ..." still frames
        return False
    for child in token.children:
        if child.dep_ == "prep" and child.lower_ in _ABOUT:
            about = [g for g in child.children if g.dep_ == "pobj"]
        elif child.dep_ in _CLAUSES:
            about = list(child.subtree)
        else:
            continue
        if any(g.pos_ in _NOUNS and not g.is_stop and g.ent_type_ not in _NOT_TOPICS for g in about):
            return True
    return False


def _partner(token):  # noqa: ANN202 - a spaCy Token or None
    """The noun or name that calls the same one `token` does: in apposition ("my brother Tomas",
    "Lena, my sister"), a kinship noun compounded onto a name ("my brother Luca's exam"), or a name the
    parser hangs beside it as a second subject ("my cat Mila had kittens"). An apposition that has a
    name of its own as its possessor is that one's thing ("my sister Amira's birthday", parsed as "my
    sister, Amira's birthday"): the name is the partner, not the thing."""
    if token.dep_ == "appos" and token.head.pos_ in _NOUNS:
        return None if _named_owner(token) is not None else token.head
    if token.dep_ == "poss" and token.head.dep_ == "appos" and token.head.head.pos_ in _NOUNS:
        return token.head.head
    found = next((c for c in token.children if c.pos_ in _NOUNS and (
        c.dep_ == "appos" or (c.dep_ == "compound" and token.pos_ == "PROPN" and c.pos_ == "NOUN"))), None)
    if found is not None and found.dep_ == "appos" and (owner := _named_owner(found)) is not None:
        return owner
    return found or (name_beside(token) if token.pos_ == "NOUN" else None)


def _named_owner(noun):  # noqa: ANN202 - a spaCy Token -> Token or None
    """The proper name that is the noun's possessor ("Amira" of "Amira's birthday")."""
    return next((c for c in noun.children if c.dep_ == "poss" and c.pos_ == "PROPN"), None)


def _alias(token) -> str | None:
    """The partner's head as `token`'s mention would write it, lower-cased."""
    partner = _partner(token)
    return None if partner is None else (_name(partner) if partner.pos_ == "PROPN" else _head_phrase(partner)).casefold()


def _whose_alias(token) -> str | None:
    """The other way the text calls whose `token` is: the partner of its possessor or of the subject
    that has it, written as a possessor is."""
    whose = next((c for c in token.children if c.dep_ == "poss" and c.pos_ in _NOUNS), None)
    if whose is None and token.dep_ in ("dobj", "attr"):
        whose = next((c for c in token.head.children if c.dep_ == "nsubj" and c.pos_ in _NOUNS), None)
    return _as_whose(_partner(whose)) if whose is not None else None


def _as_whose(token) -> str | None:  # noqa: ANN001 - a spaCy Token or None
    """A noun or name as a possessor is written: a name as written, a noun by its lemma; None else."""
    if token is None:
        return None
    return _name(token) if token.pos_ == "PROPN" else token.lemma_.lower() if token.pos_ == "NOUN" else None


def _titles_a_name(token) -> bool:
    """A common noun before a name that spaCy files as the name's compound ("my grandson Mateo")."""
    return (token.dep_ in _PHRASE_DEPS and token.pos_ == "NOUN" and not token.is_stop
            and token.head.pos_ == "PROPN" and token.i < token.head.i)


def _qualities(token, lexicon: WordNet | None) -> tuple[str, ...]:  # noqa: ANN001 - a spaCy Token
    """The adjectives said of the thing and of the nouns before it, and those of "one" saying it again later in the
    sentence with only a time between ("we changed the alarm code last week, the new one is 9920":
    the new alarm code)."""
    def adjectives(t) -> list[str]:  # noqa: ANN001
        # those of the nouns before it too: "front" of "my front door code" hangs on "door"
        return [c.lemma_.lower() for w in (*_which_one(t), t) for c in w.children if c.dep_ == "amod" and c.pos_ == "ADJ"]

    said = adjectives(token)
    for later in token.doc[token.i + 1: token.sent.end]:
        if later.lemma_.lower() == "one" and later.pos_ == "NOUN" and any(c.dep_ == "det" for c in later.children):
            return tuple(said + adjectives(later))
        if later.pos_ in ("NOUN", "PROPN") and not (lexicon is not None and lexicon.names_a_time(later.lemma_.lower())):
            break  # another thing named: "one" would say that one again
    return tuple(said)


def _a_name(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """Tagged a proper noun, and not a lower-case word with an article: the small tagger calls a common
    noun a name now and then ("the new locker code is ZT90": "code"), and a name takes no "the"."""
    return token.pos_ == "PROPN" and not (token.text.islower() and any(c.dep_ == "det" for c in token.children))


def _a_common_word(token, lexicon: WordNet | None) -> bool:  # noqa: ANN001 - a spaCy Token
    """A noun typed in lower case whose most frequent sense WordNet writes without a capital: the
    recogniser's entity on it is a guess ("wifi password is plantain77" filed as a person), not a name."""
    senses = lexicon.capitalised_senses(token.lemma_.lower()) if lexicon is not None else ()
    return token.pos_ == "NOUN" and token.text.islower() and bool(senses) and not senses[0]


def read_mentions(doc, lexicon: WordNet | None = None) -> tuple[Mention, ...]:
    """The mentions of a parsed text, in order, each once; what compounds' modifiers name after them."""
    seen: dict[tuple, Mention] = {}
    modifiers: list[Mention] = []
    for token in doc:
        modifiers += _events(token, lexicon)
        if _titles_a_name(token):
            # "my grandson Mateo scored": spaCy files the person's title as a compound of the name;
            # it is a mention of its own, whose the name is ("what did I say about my grandson?")
            name = token.head
            possessor = _possessor(name)
            mention = Mention(token.lemma_.lower(), possessor, False, _owner(name, lexicon) if possessor in (None, SOMEONE) else None,
                              _frame(name), _name(name).casefold(), _whose_alias(name))
            seen.setdefault((mention.head, mention.possessor), mention)
            continue
        if token.pos_ not in _NOUNS or token.dep_ in _PHRASE_DEPS or token.is_stop or _runs_on(token.head) is token:
            continue
        if token.ent_type_ in _NOT_TOPICS or a_length_of_time(token) or not any(ch.isalpha() for ch in token.text):
            continue
        name = _a_name(token) or (token.ent_type_ in ("PERSON", "GPE", "LOC", "ORG", "FAC", "NORP")
                                   and not _a_common_word(token, lexicon))
        # a name set beside a noun is that thing's own name, whose the thing is ("a cat called Tiger" of
        # the neighbour who has it), never a kind WordNet relates to another ("tiger" / "cat")
        owned = noun_named(token) if name else None
        owned = owned if owned is not None and owned.pos_ == "NOUN" else token
        possessor = _possessor(owned)
        head = _name(token) if name else _head_phrase(token, lexicon)
        if not name and (last := _runs_on(token)) is not None:
            head = f"{head} {last.lemma_.lower()}"
        if not name and (thing := _owning_thing(token, lexicon)) is not None:
            # a thing's thing says which one, as a compound does ("my van's alarm code" is my van alarm code)
            head, possessor = f"{thing.lemma_.lower()} {head}", _possessor(thing)
        mention = Mention(head, possessor, name,
                          _owner(owned, lexicon) if possessor in (None, SOMEONE) else None, _frame(token), _alias(token),
                          _whose_alias(token), topic=name or not _frames_a_topic(token, lexicon),
                          qualities=_qualities(token, lexicon),
                          which=any(c.dep_ == "det" and c.tag_ == "WDT" for c in token.children),
                          new=any(c.dep_ == "det" and "Ind" in c.morph.get("Definite") for c in token.children))
        seen.setdefault((mention.head.casefold(), mention.possessor), mention)
        if not name:
            modifiers += _modifiers(token, mention)
    for mention in modifiers:
        seen.setdefault((mention.head.casefold(), mention.possessor), mention)
    if not any(m.topic for m in seen.values()):
        for mention in _doings_asked(doc, lexicon):
            seen.setdefault((mention.head.casefold(), mention.possessor), mention)
    return tuple(seen.values())


def _doings_asked(doc, lexicon: WordNet | None) -> list[Mention]:  # noqa: ANN001 - a spaCy Doc
    """A question that names no thing asks of a thing done ("where did I park?"): the events its verbs
    name, each asked about as the same event (a memory's "I parked on level 3" names parking); not the
    listener's knowing or telling the question is put in ("what am I building, do you remember?")."""
    return [m for token in doc if not (_knows_or_tells(token, lexicon) and _doer(token)[0] == LISTENER)
            for m in _events(token, lexicon, asked=True)]


@dataclass(frozen=True)
class Thresholds:
    head: float  # head phrases WordNet cannot relate agree from this MiniLM cosine
    possessor: float  # possessors WordNet cannot relate are the same person from this cosine
    sister_depth: int = 2  # WordNet sisters: at most this many kind-of links below a common ancestor
    ancestor_depth: int = 5  # ... that lies at least this deep
    rival: float = float("inf")  # unknown to WordNet and at least this close but not agreeing: sister words
    sense: float = 0.5  # WordNet relates words through a rarer sense of either only from this cosine

    @classmethod
    def of(cls, calibration) -> Thresholds:
        """The thresholds a RecallCalibration was fitted with."""
        return cls(calibration.head_threshold, calibration.possessor_threshold, calibration.sister_depth,
                   calibration.ancestor_depth, calibration.rival_threshold, calibration.sense_threshold)


AGREE, NONE, SISTER = 1, 0, -1  # how a memory's head relates to a question's


class EntityReader:
    """Mentions of texts (spaCy, cached per text) and their comparison (WordNet's relations, MiniLM
    cosines where WordNet knows neither word; both cached)."""

    def __init__(self, nlp, embed: Callable[[list[str]], np.ndarray], thresholds: Thresholds,
                 cache_size: int = 4096, lexicon: WordNet | None = None) -> None:
        self.nlp = nlp
        self._embed = embed
        self.thresholds = thresholds
        self.lexicon = lexicon
        self._mentions: LRUCache[str, tuple[Mention, ...]] = LRUCache(cache_size)
        self._persons: LRUCache[str, Persons] = LRUCache(cache_size)
        self._vectors: LRUCache[str, np.ndarray] = LRUCache(cache_size)
        self._relations: LRUCache[tuple[str, str, int, int, float], tuple[Relation, int | None]] = LRUCache(cache_size * 4)
        self._lock = threading.Lock()  # the episode save reads on its own thread

    def prepare(self, texts: list[str]) -> None:
        """Parse the texts not read yet in one batch (spaCy's pipe is about three times faster per
        text than one call each), and embed the phrases they name in one model run (one run per
        memory compared cost more than the cross-encoder's)."""
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._mentions))
        if missing:
            read = [(read_mentions(doc, self.lexicon), read_persons(doc)) for doc in self.nlp.pipe(missing)]
            with self._lock:
                for text, (found, persons) in zip(missing, read, strict=True):
                    self._mentions[text] = found
                    self._persons[text] = persons
        self._remember([w for t in texts for w in self.words(t)])

    def words(self, text: str) -> list[str]:
        """The phrases compare() embeds of `text`: what its mentions name (heads, owners, aliases)."""
        return [w for m in self.mentions(text) for w in (m.head, m.possessor, m.owner, m.whose_alias)
                if w is not None and w not in (SPEAKER, SOMEONE)]

    def _remember(self, words: list[str]) -> None:
        """Embed the phrases not embedded yet (the embedder gives a phrase the same vector in any batch)."""
        with self._lock:
            missing = list(dict.fromkeys(w for w in words if w not in self._vectors))
        if missing:
            rows = self._embed(missing)
            with self._lock:
                for w, row in zip(missing, rows, strict=True):
                    self._vectors[w] = row

    def mentions(self, text: str) -> tuple[Mention, ...]:
        return self._read(text)[0]

    def persons(self, text: str) -> Persons:
        return self._read(text)[1]

    def _read(self, text: str) -> tuple[tuple[Mention, ...], Persons]:
        with self._lock:
            found, persons = self._mentions.get(text), self._persons.get(text)
        if found is None or persons is None:
            doc = self.nlp(text)
            found, persons = read_mentions(doc, self.lexicon), read_persons(doc)
            with self._lock:
                self._mentions[text] = found
                self._persons[text] = persons
        return found, persons

    def _cosines(self, left: list[str], right: list[str]) -> np.ndarray:
        """(len(left), len(right)) cosine of the phrases (each embedded once per process)."""
        words = list(dict.fromkeys(left + right))
        self._remember(words)
        with self._lock:
            vectors = {w: self._vectors.get(w) for w in words}
        if any(v is None for v in vectors.values()):  # evicted meanwhile by another thread
            rows = self._embed(words)
            vectors = dict(zip(words, rows, strict=True))
        a = np.array([vectors[w] for w in left]).reshape(len(left), -1)
        b = np.array([vectors[w] for w in right]).reshape(len(right), -1)
        return a @ b.T

    def relation(self, asked: str, told: str) -> tuple[Relation, int | None]:
        """WordNet's relation of two head phrases: of the whole phrases where WordNet has them, else
        of their last words, with what stands before them weighed (_phrases); UNKNOWN without WordNet."""
        if self.lexicon is None:
            return Relation.UNKNOWN, None
        key = (asked, told, self.thresholds.sister_depth, self.thresholds.ancestor_depth, self.thresholds.sense)
        with self._lock:
            known = self._relations.get(key)
        if known is None:
            known = self._words(asked, told)
            if known[0] is Relation.UNKNOWN:
                known = self._phrases(asked.split(), told.split())
            with self._lock:
                self._relations[key] = known
        return known

    def _words(self, asked: str, told: str) -> tuple[Relation, int | None]:
        """WordNet's relation of two words or phrases it lists. Through a rarer sense of either, they
        are the same or one contains the other only where MiniLM reads them alike (the sense
        threshold): with every sense, "pin" (a lock's tumbler) is part of a "deposit" (a depository)
        and "pin" (slang for a leg) a kind of "leg", while "mum" is a flower first and "mother" second;
        below it, only both words' most frequent senses relate them."""
        assert self.lexicon is not None
        depths = (self.thresholds.sister_depth, self.thresholds.ancestor_depth)
        found = self.lexicon.relation(asked, told, *depths)
        if found[0].agrees and found[1] and self._cosines([asked], [told])[0, 0] < self.thresholds.sense:
            return self.lexicon.relation(asked, told, *depths, senses=1)
        return found

    def _phrases(self, asked: list[str], told: list[str]) -> tuple[Relation, int | None]:
        """Phrases WordNet lacks ("math exam", "coffee machine") by their heads, where the words before
        them can only narrow: two phrases of one head whose modifiers differ agree only when those do,
        and are two of a kind otherwise ("piano lesson" / "guitar lesson"; "math exam" / "driving test"
        by their heads: unrelated); a phrase naming every modifier of the other and more is a kind of
        it when it is the memory's ("driving theory test" for "driving test"); a phrase asked of a plain
        word names more than the memory says ("basketball final" / "final", "coffee machine" /
        "printer"), a plain word asked of a phrase names its kind ("test" / "driving test")."""
        if len(asked) == 1 and len(told) == 1:
            return Relation.UNKNOWN, None
        heads = self._words(asked[-1], told[-1])
        if not heads[0].agrees:
            # one phrase naming the other's head before its own ("the hiking trip" / "a week hiking")
            # speaks of the same activity from another side: not another thing of the same kind
            crossed = told[-1] in asked[:-1] or asked[-1] in told[:-1]
            return (Relation.UNRELATED, None) if crossed and heads[0] is Relation.SISTER else heads
        if len(asked) > 1 and len(told) > 1:
            # what the memory says before the head includes every word asked ("driving test" /
            # "driving theory test"): a kind of what is asked, as a plain word asked of a phrase is
            if set(asked[:-1]) <= set(told[:-1]):
                return heads
            # the words before the heads that differ ("van alarm code" / "shop alarm code": "van" / "shop")
            ours = [w for w in asked[:-1] if w not in told[:-1]]
            theirs = [w for w in told[:-1] if w not in asked[:-1]]
            if not (ours and theirs):
                return Relation.UNRELATED, None
            # each word asked agreeing with one the memory says is the same one ("music audition" /
            # "youth orchestra bassoon audition"); otherwise each says which one, and they differ: two of
            # one kind ("bike lock code" / "gate code", "van alarm code" / "shop alarm code"), as "piano
            # lesson" and "guitar lesson" are
            if all(any(self._modifier_relation(o, t)[0].agrees for t in theirs) for o in ours):
                return heads
            return Relation.SISTER, None
        if len(asked) > 1:
            return Relation.UNRELATED, None
        return heads

    def _modifier_relation(self, asked: str, told: str) -> tuple[Relation, int | None]:
        """How two phrases' modifiers relate: as words do, and the same where WordNet files them
        apart but one names what a kind of the other is for ("music" / "cello": a musical instrument,
        through "musician"), or their cosine reaches the head threshold; sisters stay sisters ("piano
        lesson" / "guitar lesson")."""
        assert self.lexicon is not None
        found = self._words(asked, told)
        if found[0] in (Relation.UNRELATED, Relation.UNKNOWN) and (
                self.lexicon.derived_kin(asked, told) or self._cosines([asked], [told])[0, 0] >= self.thresholds.head):
            return Relation.SAME, None
        return found

    def _relate(self, asked: list[Mention], told: list[Mention]) -> tuple[np.ndarray, np.ndarray]:
        """(cosines, relations) of every question head against every memory head: AGREE, SISTER
        or NONE. A name agrees only with the same name unless WordNet knows both ("Japan" ⊇ "Tokyo").
        Heads agree when WordNet relates them (the same, a kind or a whole of the other), or when
        their cosine reaches the head threshold and WordNet does not know them or files the two
        words apart ("pet" / "dog", "pet" / "cat"), unless as direct sisters ("mother" / "father",
        cosine 0.73) or as phrases whose heads it already told apart ("weather forecast" /
        "weather"); they are sisters when WordNet says so, or, for a pair it does not know, from
        the rival threshold. Agreeing heads of which the two say opposite things ("the old case
        number" / "the new case number") are sisters. What the memory names without telling of it
        (a compound's modifier) agrees only as the same or a kind of what is asked, and is never a sister."""
        heads = self._cosines([q.head for q in asked], [m.head for m in told])
        related = np.zeros(heads.shape, np.int8)
        for i, q in enumerate(asked):
            for j, m in enumerate(told):
                same_name = q.head.casefold() == m.head.casefold()
                if same_name:
                    related[i, j] = SISTER if self._opposed(q, m) else AGREE
                    heads[i, j] = 1.0
                    continue
                kind, distance = self.relation(q.head, m.head)
                if kind is Relation.UNKNOWN and (q.name or m.name):
                    heads[i, j] = 0.0
                    continue
                # a close cosine joins two words WordNet files apart ("pet" / "cat"), not direct
                # sisters, nor phrases its heads already told apart ("weather forecast" / "weather")
                # nor a name WordNet knows as a word ("Dad" / "my mother"): names agree by WordNet alone
                # ... nor two kinds of person WordNet has as sisters at any depth ("dad" / "mom",
                # cosine 0.75): one person is never the other
                words = " " not in q.head and " " not in m.head and not (q.name or m.name)
                apart = kind is Relation.SISTER and (distance == 1 or self._people(q.head, m.head))
                close = heads[i, j] >= self.thresholds.head and (kind is Relation.UNKNOWN or (words and not apart))
                if not m.topic:
                    # named, not told of: a modifier names a kind, not one thing ("animal shelter"
                    # tells of no horse, a "cello exam" of a cello and so of an instrument), and
                    # another kind named in passing is no sister of what is asked
                    if kind is Relation.SAME or (kind is Relation.BROADER and not m.event):
                        related[i, j] = AGREE
                elif kind.agrees or close:
                    related[i, j] = SISTER if self._opposed(q, m) else AGREE
                elif kind is Relation.SISTER or (kind is Relation.UNKNOWN and heads[i, j] >= self.thresholds.rival):
                    related[i, j] = SISTER
                elif q.head.split()[-1] == m.head.split()[-1] and self._other_one(m, q):
                    # "my garage door code" against "the front door code": which one by an adjective
                    related[i, j] = SISTER
        return heads, related

    def _people(self, *heads: str) -> bool:
        """Each head is a kind of person first in WordNet ("dad", "mom")."""
        return self.lexicon is not None and all(self.lexicon.kind_of_person(h) for h in heads)

    def _opposed(self, asked: Mention, told: Mention) -> bool:
        """The two say opposite things of it (WordNet's antonyms: "the old case number" / "the new
        case number"), or one says which one with a word the small tagger calls an adjective and the
        other with another word ("my front door code" / "my garage door code"): two of the same kind,
        as sister words are."""
        if self.lexicon is None:
            return False
        return any(b in self.lexicon.antonyms(a) for a in asked.qualities for b in told.qualities) or \
            self._other_one(asked, told) or self._other_one(told, asked)

    def _other_one(self, one: Mention, other: Mention) -> bool:
        """One's adjective names a thing first of all in WordNet ("front", "safe", "back": a place, an
        artifact, a body part), so it says which one as a noun before the head does; the other says
        which one with words before its head that the first lacks, none of which agree with it."""
        assert self.lexicon is not None
        which = [q for q in one.qualities if self.lexicon.lexical_file(q) in _THING_FILES]
        theirs = [w for w in other.head.split()[:-1] if w not in one.head.split() and w not in which]
        return bool(which and theirs) and not any(
            self._modifier_relation(q, w)[0].agrees for q in which for w in theirs)

    def head_similarity(self, question: Mention, memory: Mention) -> float:
        if question.name or memory.name:
            return float(question.head.casefold() == memory.head.casefold())
        return float(self._cosines([question.head], [memory.head])[0, 0])

    def _owned_through_things(self, mentions: tuple[Mention, ...]) -> tuple[Mention, ...]:
        """Whose a thing's part is, through the thing: "my car's MOT" is the speaker's MOT as "my MOT"
        is, so the mention is also called by its thing's possessor. Only through a thing WordNet
        files as no person: "my sister's car" is not the speaker's car."""
        if self.lexicon is None:
            return mentions
        owners = {m.head: m.possessor for m in mentions if m.possessor is not None}
        out = []
        for m in mentions:
            through = owners.get(m.possessor) if m.possessor not in (None, SOMEONE, *PEOPLE) else None
            if through is not None and m.whose_alias is None and not m.name \
                    and not _a_person_word(m.possessor, self.lexicon):
                m = replace(m, whose_alias=through)
            out.append(m)
        return tuple(out)

    def _same_owner(self, q: Mention, m: Mention) -> bool | None:
        """Whether two mentions belong to the same one, however each text calls them ("my brother
        Luca's exam" / "Luca passed his test"): True when some way agrees, None when either leaves it unsaid."""
        found = [self._same_possessor(a, b) for a in q.whose for b in m.whose]
        if True in found:
            return True
        return False if False in found else None  # ... or when whose either is cannot be compared

    def _same_possessor(self, q: str | None, m: str | None) -> bool | None:
        """True / False when both are said; None when either is not (nothing to compare). People
        named by kinship words are the same when WordNet relates the words ("mum" / "mother"),
        others when close by cosine."""
        if q is None or m is None:
            return None
        if m == SOMEONE:  # someone the memory does not name: not the speaker or the listener, maybe anyone else
            return False if q in PEOPLE else None
        if q == SOMEONE:  # the question's "her" may be the one it is put to ("what did Mel paint for her ...?")
            return None
        if q == m:
            return True
        if q in PEOPLE or m in PEOPLE:  # the speaker and the listener are no one else
            return False
        kind, _ = self.relation(q, m)
        if kind is not Relation.UNKNOWN:
            return kind.agrees
        return bool(self._cosines([q], [m])[0, 0] >= self.thresholds.possessor)

    @staticmethod
    def _speakers_or_no_ones(m: Mention) -> bool:
        """Whose a memory's mention is leaves it the speaker's: said so, or said of no one. A modifier
        of another's thing ("your basketball career") names nothing of the speaker's to agree with
        a question that does not say whose it asks about."""
        return set(m.whose) <= {SPEAKER}

    def compare(self, question: str, memory: str) -> Comparison:
        asked = tuple(m for m in self.mentions(question) if m.topic)
        to_listener = self.persons(question).speaker and self.persons(memory).listener_alone
        if not asked:
            return Comparison(0, 0, 0, 0.0, 0, to_listener=True) if to_listener else NO_COMPARISON
        told = self.mentions(memory)
        if not told:
            return Comparison(len(asked), 0, 0, 0.0, sum(q.name for q in asked), to_listener=to_listener)
        asked, told = self._owned_through_things(asked), self._owned_through_things(told)
        heads, related = self._relate(list(asked), list(told))
        # an agreeing head must belong to the same person (said, or the subject that has it)
        owners = [[self._same_owner(q, m) for m in told] for q in asked]
        agreed = [[r == AGREE and (o is True or o is None and (m.topic or q.whoever or self._speakers_or_no_ones(m)))
                   for r, o, m in zip(related[i], owners[i], told, strict=True)] for i, q in enumerate(asked)]
        agrees = [any(a and (m.topic or q.whoever) for a, m in zip(agreed[i], told, strict=True)) for i, q in enumerate(asked)]
        by_head = {q.head.casefold(): i for i, q in enumerate(asked)}
        # "my brother Tomas" is one person: the memory naming Tomas is about the brother asked about;
        # not the other way round, a memory of "my brother" need not be of Tomas (nor one of a
        # "deposit", which a "bank" is through a rare sense, of "my bank PIN", parsed as a name)
        agrees = [a or (q.alias is not None and asked[by_head.get(q.alias, i)].name and agrees[by_head.get(q.alias, i)])
                  for i, (a, q) in enumerate(zip(agrees, asked, strict=True))]
        agreeing = conflicting = rivals = 0
        for i, q in enumerate(asked):
            if agrees[i]:
                agreeing += 1
                continue
            # the same thing with another owner, another thing of the same kind with the same owner,
            # or another thing in a frame said by name ("my neighbour's ..."): nearly everything a
            # person tells is "my" something, so only a sister word conflicts there
            named_frame = q.possessor not in (None, SOMEONE, *PEOPLE)
            if any((r == AGREE and o is False) or (r == SISTER and o is not False and not q.name)
                   or (q.frame is not None and m.frame == q.frame and o is not False and not (q.which and m.name))
                   for r, o, m in zip(related[i], owners[i], told, strict=True)) or (named_frame and any(
                    self._same_possessor(q.possessor, m.possessor) is True for m in told)):
                conflicting += 1
            elif any(agreed[i]):
                # named in passing, as a modifier ("travel" of "travel enthusiasts"): it agrees where
                # nothing the memory tells of conflicts ("how was your trip?" against "my travels")
                agreeing += 1
            elif any(r == SISTER for r in related[i]):
                rivals += 1
        # a name of the question that nothing in the memory agrees with ("Japan" agrees with "Tokyo")
        missing = sum(q.name and not agrees[i] and not (related[i] == AGREE).any() for i, q in enumerate(asked))
        return Comparison(len(asked), agreeing, conflicting, float(heads.max(axis=1).mean()), missing, rivals,
                          to_listener, sum(a and not q.new for a, q in zip(agrees, asked, strict=True)))


def build_reader(embed: Callable[[list[str]], np.ndarray], thresholds: Thresholds) -> EntityReader | None:
    """The reader on the shipped spaCy pipeline and WordNet (cosines alone without it); None (one
    log line) when spaCy cannot load: the decision then sees no mentions in any text."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        return EntityReader(load_parser(), embed, thresholds, lexicon=load_wordnet())
    except ParserUnavailable as exc:
        log.error("%s; recall decides without reading what the question names", exc)
        return None
