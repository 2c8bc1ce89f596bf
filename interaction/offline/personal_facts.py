"""Where someone is from, where they live, how old they are and the people of their life by name,
read off spaCy's dependency parse and named entities ("I'm a lab technician from Porto", "living up
in Derry", "I'm 52", "my partner is called Ruth", "my niece Amara starts school").

Each fact comes from a statement about the speaker: a clause whose subject is the speaker and that
is told as so (self_description.py: not negated, not wished, not past), or a verbless fragment, which
in a conversation describes the one saying it ("from Galway originally", "outside of Tours").
- hometown: a place named after "from" on the speaker's "be" or "come", on what the speaker is said
  to be ("a nurse from Lagos"), or heading a fragment; never the "from" of a move ("we moved from
  Oslo": where they no longer live);
- location (their home): a place named under the preposition of a predicate of living whose subject
  is the speaker, or of such a participle said alone ("living over in Cork", "I live just outside of
  Ames, Iowa"); the place the speaker is back in ("I'm back in Bergen now", a return: "back from Rome"
  is a trip ended); a place listed beside an age said alone ("23, nursing student, leeds");
- age: a number the speaker is ("I'm 34"), is years old ("I'm 34 years old") or that opens a
  verbless list about them, set off by a comma ("17, high school, ohio"), with the number read as a count by the entity
  recogniser, never a date, a time or an amount;
- relations: a person word (WordNet's noun.person) the speaker owns ("my husband", "my boss") with the
  proper name said as it ("my son Arjun"), or that it is ("my wife is Noor", "my husband is called
  Ciarán"); the value is "<name> (<relation>)".
A place is a proper noun the recogniser does not file as a person, a time or a number (the small
tagger labels "Bristol" an organisation), with the places in apposition to it ("Ames, Iowa").
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata

from interaction import cues
from interaction.offline.grounding import Grounded, first_person
from interaction.offline.parsing import (
    ParserUnavailable,
    as_capitalised,
    load_parser,
    spliced,
    subject_joined_after,
    subject_of,
)

FIELDS = ("hometown", "location", "age", "relations")
_NOT_PLACES = {"PERSON", "DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "MONEY", "PERCENT", "NORP"}
# a proper noun in apposition to a person word names that person whatever place label the small
# recogniser gives it ("my cousin Dara": GPE, "called Saoirse": LOC); a time or a number does not
_NOT_NAMES = {"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "MONEY", "PERCENT"}
_NAMING_DEPS = {"appos", "compound"}  # "my son Arjun", "my friend Lily"
_NAMED_AS = {"attr", "oprd"}  # "my wife is Noor", "my husband is called Ciarán"
_VERBS = {"VERB", "AUX"}
_ENTHUSIASTS = frozenset({"enthusiast", "devotee"})  # WordNet's kinds a fan, a buff and a lover of something are of
_MOVES = {"move", "relocate"}  # their "from" is a home left, not an origin; their "to" is read by self_description.py
_COUNTS = {"CARDINAL", "DATE"}  # the small recogniser files "I'm 41" and "52 years old" as dates
OLDEST = 130  # a count above any human age is no age
_WH = {"WRB", "WP", "WDT", "WP$"}  # the question words' tags
_COMING = {"be", "come", "hail"}  # being or coming from a place: an origin
# being back (home) in a place is having returned there to live: "I'm back in Bergen now", "we're back home
# in Galway" ("back from Rome" is a trip ended)
_RETURNED = {"back", "home"}


def read(text: str) -> list[Grounded]:
    """The facts of `text` as grounded values (their span, and for a place whether it is a home)."""
    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return []
    out: list[Grounded] = []
    for sent in doc.sents:
        if sent.text.rstrip().endswith("?"):
            continue
        for tok in sent:
            out += _origin(tok) + _home(tok) + _age(tok) + _relation(tok) + _enthused_by(tok)
    seen: set[tuple[str, str]] = set()
    return [g for g in out if (g.field, g.value.casefold()) not in seen and not seen.add((g.field, g.value.casefold()))]


def _said_of_speaker(pred) -> bool:  # noqa: ANN001 - a spaCy Token
    """A predicate the speaker is the subject of and tells as so, or the head of a verbless fragment."""
    from interaction.offline.self_description import _asserted, _speaker_predicate

    if _speaker_predicate(pred):
        return True
    return pred.dep_ == "ROOT" and subject_of(pred) is None and _asserted(pred) and (
        pred.pos_ not in _VERBS or pred.tag_ == "VBG")


def _place(tok, placed: bool = False) -> bool:  # noqa: ANN001
    """A proper noun, or words the recogniser names, that are no time or number (nor, but where the
    preposition names only places, `placed`: the "from" of an origin, the "in" of a return, a person:
    the small tagger takes "Lyon", "Kraków" and "Kilkenny" for people)."""
    excluded = _NOT_PLACES - {"PERSON"} if placed else _NOT_PLACES
    return (tok.pos_ == "PROPN" or bool(tok.ent_type_)) and tok.ent_type_ not in excluded


def _placed_by_another(noun, placed: bool = False):  # noqa: ANN001, ANN202 - a spaCy Token or None
    """The place a common noun of a kind of place (one of its two most frequent WordNet senses a
    noun.location: "town"; "village" is its people first) is said to lie by ("a village near York":
    York); None otherwise."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    if noun.pos_ != "NOUN" or wordnet is None or "noun.location" not in wordnet.lexical_files(noun.lemma_.lower())[:2]:
        return None
    return next((p for c in noun.children if c.dep_ == "prep" and (p := _place_under(c, placed)) is not None), None)


def _place_words(tok) -> tuple[int, int]:  # noqa: ANN001
    """The token span of a place with the compound words and the places in apposition to it; of a kind
    of place said by where it lies, the phrase up to that place ("a little village near York")."""
    if (beside := _placed_by_another(tok, placed=True)) is not None:  # said where a place is: any name
        return tok.left_edge.i, _place_words(beside)[1]
    parts = [tok, *(c for c in tok.children if c.dep_ == "compound" or (c.dep_ == "appos" and _place(c)))]
    return min(p.i for p in parts), max(p.i for p in parts) + 1


def _grounded(field: str, doc, start: int, end: int, home: bool = False, value: str | None = None) -> Grounded:  # noqa: ANN001
    span = doc[start:end]
    # a clause on a person of theirs tells that person's life ("my son Luka works at a boatyard"): the
    # turn it was told in answers questions on it, the profile keeps who the person is to them
    clause = None if field == "relations" else _clause_of(doc[start])
    return Grounded(field, value or span.text, span.start_char, span.end_char, span.text, home=home, clause=clause)


def _clause_of(tok) -> str | None:  # noqa: ANN001
    """The clause a value was said in: its verb's (self_description.clause_text); None for a verbless
    fragment (no subject to say back in the second person) or a clause too long to be said back."""
    from interaction.offline.grounding import MAX_CLAUSE_WORDS, verb_read_as_a_noun
    from interaction.offline.self_description import clause_text

    node = tok
    while node.pos_ not in _VERBS and node.dep_ != "ROOT" and not verb_read_as_a_noun(node):
        node = node.head
    if verb_read_as_a_noun(node):
        # its subject is the verb's it is joined to ("I live in Bath and work at the museum as a guide")
        if subject_of(node.head) is None:
            return None
    elif node.pos_ not in _VERBS or subject_of(node) is None:
        return None
    text = clause_text(node)
    return text if len(text.split()) <= MAX_CLAUSE_WORDS else None


def _place_under(prep, placed: bool = False):  # noqa: ANN001, ANN202 - a spaCy Token or None
    """The place a preposition names, directly or through "of" ("outside of Ames"), or a kind of place
    said by where it lies ("a little village near York": the phrase is the place)."""
    for obj in (c for c in prep.children if c.dep_ == "pobj"):
        if _place(obj, placed):
            return obj
        if _placed_by_another(obj, placed) is not None:
            return obj
    for inner in (c for c in prep.children if c.dep_ == "prep"):
        found = _place_under(inner, placed)
        if found is not None:
            return found
    return None


def _origin(tok) -> list[Grounded]:  # noqa: ANN001
    if tok.dep_ not in ("prep", "ROOT") or tok.lower_ != "from":
        return []
    head = tok if tok.dep_ == "ROOT" else tok.head
    # "a nurse from Lagos", and "I am Bernard, from Lyon": what the speaker is said to be, or their name
    owner = head.head if head.dep_ in ("attr", "appos") and head.pos_ in ("NOUN", "PROPN") else head
    if owner.lemma_.lower() in _MOVES or not _said_of_speaker(owner):
        return []
    place = _place_under(tok, placed=True)
    if place is None:
        return []
    found = _grounded("hometown", tok.doc, *_place_words(place))
    # said beside the speaker's name ("I'm Rosalind Carter, from Cork"), its clause is their introduction:
    # the origin is said back on its own ("you're from Cork"), never the name with it
    return [dataclasses.replace(found, clause=None) if head.pos_ == "PROPN" else found]


def _home(tok) -> list[Grounded]:  # noqa: ANN001
    from interaction.offline.self_description import RESIDE

    if tok.lemma_.lower() in RESIDE and tok.lemma_.lower() not in _MOVES and _said_of_speaker(tok):
        # "in Derry", "outside of Tours" (the parser makes "outside" an adverb with "of" under it)
        for prep in (c for c in tok.children if c.dep_ in ("prep", "advmod") and c.lower_ != "from"):
            place = _place_under(prep)
            if place is not None:
                return [_grounded("location", tok.doc, *_place_words(place), home=True)]
    if (returned := _returned_to(tok)) and _said_of_speaker(tok):
        for prep in returned:
            place = _place_under(prep, placed=True)
            if place is not None:
                return [_grounded("location", tok.doc, *_place_words(place), home=True)]
    if tok.dep_ == "ROOT" and any(_listed_age(t) for t in tok.sent):
        # "23, nursing student, leeds": the place listed with the age, an item of the fragment's head
        places = [c for c in (tok, *tok.children) if c.dep_ in ("npadvmod", "appos", "ROOT") and _place(c)]
        return [_grounded("location", tok.doc, *_place_words(p), home=True) for p in places[:1]]
    return []


def _returned_to(be):  # noqa: ANN001, ANN202 - spaCy Tokens
    """The "in" of a "be" said with an adverb of return, on the verb or on the adverbs ("I'm back in
    Bergen" hangs it on "back", "we're back home in Galway" on "home"): where one is back; "back from"
    is where one was, "back at Spotify" a workplace, "back with Tom" company."""
    adverbs = _adverbs_of_return(be)
    return [p for h in (be, *adverbs) for p in h.children if p.dep_ == "prep" and p.lower_ == "in"] if adverbs else []


def _adverbs_of_return(be) -> list:  # noqa: ANN001 - spaCy Tokens
    """The adverbs on a "be" (and on its adverbs) when one of them tells a return, else none."""
    adverbs = [a for c in be.children if c.dep_ == "advmod" for a in c.subtree if a.dep_ == "advmod"]
    return adverbs if be.lemma_ == "be" and any(a.lower_ in _RETURNED for a in adverbs) else []


def tells_a_return(text: str) -> bool:
    """The speaker says they are back, whenever and from wherever ("I'm back home now", "I'm back from
    Rome", "I was back in Oslo last summer"): a return, which never ends a home of theirs. Only a text
    with an adverb of return is parsed (most have none)."""
    if not _RETURNED & set(re.findall(r"\w+", text.casefold())):
        return False
    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return False
    return any(_adverbs_of_return(t) and (s := subject_of(t)) is not None and first_person(s) for t in doc)


def _listed_age(tok) -> bool:  # noqa: ANN001
    """A number opening a verbless list about oneself, set off by a comma, beside things named ("17,
    high school, ohio"; "3, 4, 5" is a count)."""
    sent, root = tok.sent, tok.sent.root
    return _an_age(tok) and tok.i == sent.start and tok.i + 1 < sent.end and tok.nbor().text == "," \
        and _said_of_speaker(root) and root.pos_ not in _VERBS and any(t.pos_ in ("NOUN", "PROPN") for t in sent)


def _beside_a_name(tok) -> bool:  # noqa: ANN001
    """A number in apposition to a name said alone, or to what is listed beside it ("Kemal here, 45,
    taxi driver", "Otto Brandt here, retired plumber, 71"): the verbless introduction of the one saying it."""
    node = tok
    while node.dep_ == "appos":
        node = node.head
    # the name heads the fragment, or hangs on the greeting that opens it ("Hiya, Radoslaw here, 47, ...")
    head = node if node.dep_ == "ROOT" else node.head if node.head.dep_ == "ROOT" and cues.GREETING.match(
        node.sent.text) else None
    return node is not tok and head is not None and (node.pos_ == "PROPN" or _unknown_noun(node)) \
        and _said_of_speaker(head)


def _unknown_noun(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    """A capitalised word the tagger calls a noun that is no English word (WordNet): a name it does not
    know ("Tomasz here, 52, ...")."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return tok.pos_ == "NOUN" and tok.text[:1].isupper() and wordnet is not None and not wordnet.knows(tok.text)


def _an_age(tok) -> bool:  # noqa: ANN001
    return tok.like_num and tok.ent_type_ in _COUNTS and _years_of_a_life(tok)


def _years_of_a_life(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    return tok.text.isdigit() and 0 < int(tok.text) <= OLDEST


def _ends_the_speakers_be(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    """The number comes right after the speaker's "be" and ends its clause ("hiya im Wren and im 34"):
    the small parser, given "im" typed for "I'm", hangs it on nothing ("punct"), but the words say it
    as "I'm 34" says it."""
    doc = tok.doc
    after = doc[tok.i + 1] if tok.i + 1 < len(doc) else None
    if tok.i < 2 or not _years_of_a_life(tok) or (after is not None and not (after.is_punct or after.dep_ == "cc")):
        return False
    be, subject = doc[tok.i - 1], doc[tok.i - 2]
    return be.lemma_ == "be" and be.tag_ == "VBP" and subject.lower_ == "i"  # now: "I was 12" is no age


def _age(tok) -> list[Grounded]:  # noqa: ANN001
    if _ends_the_speakers_be(tok):
        return [_grounded("age", tok.doc, tok.i, tok.i + 1)]
    if not _an_age(tok):
        return []
    if _listed_age(tok) or _beside_a_name(tok):
        return [_grounded("age", tok.doc, tok.i, tok.i + 1)]
    head = tok.head
    if tok.dep_ == "attr" and head.lemma_ == "be" and _said_of_speaker(head):
        return [_grounded("age", tok.doc, tok.i, tok.i + 1)]
    # "I'm 34 years old": the number on "years", measuring "old", said of the speaker
    years = head if tok.dep_ == "nummod" else None
    old = years.head if years is not None and years.dep_ == "npadvmod" else None
    if old is not None and old.dep_ == "acomp" and _said_of_speaker(old.head):
        return [_grounded("age", tok.doc, tok.i, tok.i + 1)]
    return []


def _enthused_by(tok) -> list[Grounded]:  # noqa: ANN001
    """"I'm a big fan of jazz", "I'm a huge Celtic fan", "I'm a film buff": what the speaker is said to
    be an enthusiast of (a person word WordNet has, in some sense, as a kind of enthusiast), by its "of"
    or the noun before it, is an interest of theirs."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    if tok.dep_ != "attr" or tok.head.lemma_ != "be" or tok.pos_ != "NOUN" or not _said_of_speaker(tok.head):
        return []
    wordnet = load_wordnet()
    if wordnet is None or not wordnet.kind_of(tok.lemma_.lower(), _ENTHUSIASTS):
        return []
    of = [o for c in tok.children if c.dep_ == "prep" and c.lower_ == "of" for o in c.children if o.dep_ == "pobj"]
    # ... or the noun before it, or a name the tagger reads as an adjective ("a huge Celtic fan")
    named = of or [c for c in tok.children if c.dep_ == "compound" and c.pos_ in ("NOUN", "PROPN")
                   or c.dep_ == "amod" and c.is_title and not c.is_sent_start]
    return [_grounded("interests", tok.doc, min(t.i for t in n.subtree if t.dep_ != "det"), n.i + 1) for n in named[:1]]


def _relation(tok) -> list[Grounded]:  # noqa: ANN001
    """"my son Arjun", "my wife is Noor", "my husband is called Ciarán", "I have a son called Tiago",
    "we have twins, Ana and Tiago": name (relation), each name listed."""
    if not any(c.dep_ == "poss" and first_person(c) for c in tok.children) and not _had_by_the_speaker(tok):
        return []
    if _no_one_of_theirs_now(tok):
        return []  # "my favourite composer is Puccini", "my late husband, Gerald": no one in their life now
    name = _name_of(tok)
    if name is None or _parting_verb(tok) is not None:
        return []  # "I broke up with my boyfriend Marco": he was her boyfriend, he is no longer
    # each of several is one of them ("two daughters, Ana and Rita": Ana is a daughter)
    kin = tok.lemma_.lower() if tok.tag_ == "NNS" else tok.lower_
    out = []
    for each in (name, *(c for c in name.children if c.dep_ == "conj" and _a_name(c))):
        start = min([each.i, *(c.i for c in each.children if c.dep_ == "compound" and _a_name(c))])
        words = tok.doc[start:each.i + 1].text
        out.append(_grounded("relations", tok.doc, start, each.i + 1, value=f"{words} ({kin})"))
    return out


# the senses of an adjective said of a person word that make them no one in the speaker's life now:
# whom they like best, one who has died, one who was theirs before
_NOT_THEIRS_NOW = ("favorite", "dead", "former")


def _no_one_of_theirs_now(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    """The person word is said with an adjective one of whose senses (WordNet) is that of "favourite",
    "dead" or "former": "my favourite singer", "my late husband", "my former boss"."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is not None and any(c.dep_ == "amod" and any(wordnet.may_mean(c.lower_, sense) for sense in _NOT_THEIRS_NOW)
                                       for c in tok.children)


def _had_by_the_speaker(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    """The person word is what the speaker says they have ("I have a son", "we've got twins")."""
    from interaction.offline.parsing import of_having

    verb = tok.head
    return tok.dep_ == "dobj" and verb.pos_ == "VERB" and of_having(verb) \
        and any(c.dep_ == "nsubj" and first_person(c) for c in verb.children) \
        and not any(c.dep_ == "neg" for c in verb.children)


def ended_relations(text: str, held: frozenset[str] = frozenset()) -> list[str]:
    """The people the speaker tells they have left (a name, or a person word of theirs with the name it
    is said with): "I broke up with Marco", "my husband Tom and I divorced". Only what is told as done:
    not negated, not wished or planned ("I want to break up with Marco"). `held`: the names of their
    people already known (casefolded), names however the small tagger tags them ("Tomasz": a noun), and
    typed in lower case ("megan and i broke up"): read with their capital, which the tagger needs to
    parse them as the name they are."""
    if held:
        text = re.sub(r"\b(?:" + "|".join(map(re.escape, sorted(held))) + r")\b",
                      lambda m: m.group(0)[:1].upper() + m.group(0)[1:], text, flags=re.IGNORECASE)
    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return []
    out = []
    for tok in doc:
        named = (_a_name(tok) or tok.lower_ in held and tok.text[:1].isupper()) and tok.dep_ != "appos"
        name = tok if named else _name_of(tok) if _relation_owned(tok) else None
        if name is not None and left_by_speaker(tok):
            out.append(name.text)
    return out


def parted_as_a_state(text: str) -> frozenset[str] | None:
    """The speaker tells they are parted from a partner as a state of theirs ("I'm divorced now", "I got
    divorced", "I'm separated from my wife"): a verb of parting (WordNet) said of them in the passive,
    not negated. The person words they say they are parted from ({"wife"}), none when none is said;
    None when the text tells no such thing (or spaCy cannot load)."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return None
    for verb in doc:
        passive = verb.tag_ == "VBN" and (verb.dep_ == "acomp" and verb.head.lemma_ == "be" or any(
            c.dep_ == "auxpass" for c in verb.children))
        holder = verb.head if verb.dep_ == "acomp" else verb
        speaker = subject_of(holder)
        if not passive or speaker is None or not first_person(speaker) or wordnet is None \
                or any(c.dep_ == "neg" for c in (*verb.children, *holder.children)) \
                or not wordnet.parts_from_an_association(verb.lemma_, between_the_two=True):
            continue
        return frozenset(o.lemma_.lower() for c in verb.children if c.dep_ == "prep" and c.lower_ == "from"
                         for o in c.children if o.dep_ == "pobj" and o.pos_ == "NOUN")
    return None


def a_spouse(role: str) -> bool:
    """The person word is first a kind of spouse in WordNet ("wife", "hubby"; "boyfriend" is not)."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is not None and wordnet.kind_of(role.casefold(), frozenset({"spouse"}), senses=1)


def tells_leaving(text: str) -> bool:
    """The speaker tells they have left someone or something of theirs ("I quit my job at the council",
    "I broke up with Marco", "I'm divorced now"), or lost their work ("I got laid off"): a fact of
    theirs may end. Typed without a capital, read as written with them ("tariq and i split up": the
    tagger reads a name by its capital)."""
    if things_left(as_capitalised(text)) or parted_as_a_state(text) is not None:
        return True
    try:
        return work_lost(load_parser()(text))
    except ParserUnavailable:
        return False


def things_left(text: str) -> list:
    """The words of `text` (its parse) that name what the speaker tells they have left
    (`left_by_speaker`); none without the parser."""
    try:
        return [t for t in load_parser()(text) if left_by_speaker(t)]
    except ParserUnavailable:
        return []


def left_by_speaker(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    """What the token names is what the speaker tells they have left, as done: not negated, not wished
    or planned ("I quit my job at Tesco", "I broke up with Marco"; not "I want to quit")."""
    verb = _parting_verb(tok)
    # a clause of its own: the sentence's, one joined to it, or one spliced on with a comma ("I quit the
    # firm, I work in a pharmacy now", which the parser hangs on the second)
    return verb is not None and (verb.dep_ in ("ROOT", "conj") or spliced(verb, verb.head)) \
        and not any(c.dep_ == "neg" for c in verb.children)


def work_lost(doc) -> bool:  # noqa: ANN001 - a spaCy Doc
    """The speaker tells they lost their work, as done and not negated: the one a verb of ending
    employment is done to (WordNet, any sense, with its particle: "I got laid off", "my boss sacked
    me"), the subject of losing an occupation ("I lost my job": the most frequent sense of "lose"
    and of the object an occupation), or the one who left the place they held (_left_what_they_held).
    False without WordNet."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.parsing import told_as_past
    from interaction.offline.self_description import an_occupation

    wordnet = load_wordnet()
    if wordnet is None:
        return False
    for verb in doc:
        if verb.pos_ != "VERB" or not told_as_past(verb) or any(c.dep_ == "neg" for c in verb.children):
            continue
        particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), None)
        phrasal = "_".join(filter(None, (verb.lemma_.lower(), particle)))
        done_to = [c for c in verb.children if c.dep_ in ("nsubjpass", "dobj")]
        if any(first_person(c) for c in done_to) and wordnet.ends_employment(phrasal):
            return True
        subject = subject_of(verb)
        if subject is not None and first_person(subject) and wordnet.means_first(phrasal, "lose") and any(
                c.dep_ == "dobj" and an_occupation(c.lemma_) for c in verb.children):
            return True
        if subject is not None and _left_what_they_held(verb, subject, phrasal, wordnet):
            return True
    return False


def _left_what_they_held(verb, subject, phrasal: str, wordnet) -> bool:  # noqa: ANN001 - spaCy Tokens, the lexicon
    """The speaker alone is the subject of a verb whose social sense is leaving an association
    (WordNet: "retire", "resign", "step down"), said of nothing it is left for, with or from ("I retired
    on Friday after 38 years", "I've resigned"): what they left is the place they held. Not a parting
    from someone ("I broke up with Marco"), nor a move ("I retired to Spain")."""
    return subject.lower_ == "i" and wordnet.verb_lexical_file(phrasal) == "verb.social" \
        and wordnet.parts_from_an_association(phrasal) \
        and not any(c.dep_ in ("dobj", "dative") or c.dep_ == "prep" and c.lower_ in ("to", "from", "with")
                    for c in verb.children)


def not_left_by_speaker(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    """What the token names is what the speaker tells they have not left ("I didn't quit Halfords"):
    it still holds."""
    verb = _parting_verb(tok)
    return verb is not None and any(c.dep_ == "neg" for c in verb.children)


def _parting_verb(person):  # noqa: ANN001, ANN202 - a spaCy Token or None
    """The verb by which the speaker leaves their association with `person` (WordNet: a verb of
    parting), when `person` is whom it is done with or to and the speaker its subject ("I broke up
    with X", "I divorced X"), or one of its subjects beside the speaker ("X and I split up", "me and
    X broke up"); None otherwise."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    head = person.head
    if person.dep_ == "pobj" and head.dep_ == "prep":
        verb, speaker = head.head, subject_of(head.head)
        together = head.lower_ == "from"  # "I separated from Arjun"
    elif person.dep_ == "dobj":
        verb, speaker, together = head, subject_of(head), False
    elif person.dep_ in ("nsubj", "nsubjpass"):
        # the speaker joined to the person, or to the name said beside them ("my partner Agata and I"), or
        # a second subject of the same verb after the person's "and" ("Emma and I got divorced", parsed so)
        verb, speaker = head, next((c for c in person.subtree if c.dep_ == "conj" and first_person(c)), None) or next(
            (c for c in head.children if c.dep_ == person.dep_ and c.i > person.i and first_person(c)
             and any(a.dep_ == "cc" for a in person.children)), None)
        together = True
    elif person.dep_ == "conj" and head.dep_ in ("nsubj", "nsubjpass"):
        verb, speaker, together = head.head, head, True
    elif (joined := subject_joined_after(person)) is not None:  # "jake and i broke up", however parsed
        verb, speaker, together = joined.head, joined, True
    else:
        return None
    wordnet = load_wordnet()
    if speaker is None or not first_person(speaker) or verb.pos_ not in _VERBS or wordnet is None:
        return None
    particle = next((c.lemma_ for c in verb.children if c.dep_ == "prt"), None)
    lemma = f"{verb.lemma_}_{particle}" if particle else verb.lemma_
    # done between the two of them alone: nothing else is what the verb acts on
    alone = together and not any(c.dep_ in ("dobj", "attr", "acomp", "oprd", "xcomp") for c in verb.children)
    return verb if wordnet.parts_from_an_association(lemma, between_the_two=alone) else None


def _name_of(tok):  # noqa: ANN001, ANN202 - a spaCy Token or None
    """The proper name a person word (WordNet's noun.person) is said with ("son Arjun") or is said to be
    ("... is Noor", "... is called Ciarán"), else None."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    if tok.pos_ != "NOUN":
        return None
    wordnet = load_wordnet()
    if wordnet is None or not wordnet.kind_of_person(_unaccented(tok.lemma_)):
        return None
    named = [c for c in tok.children if c.dep_ in _NAMING_DEPS and (_a_name(c) or _an_unknown_word_as_a_name(c))]
    # ... or is called: "a son called Tiago" (the name the verb's object predicate)
    named = named or [o for c in tok.children if c.dep_ == "acl" for o in c.children if o.dep_ == "oprd" and _a_name(o)]
    if not named and tok.dep_ == "compound" and _a_name(tok.head):
        named = [tok.head]  # the parser may hang the person word on the name: "my aunt Marguerite"
    # ... not when the verb has an object, which the name is said of: "my friends call me Segun" names me
    if not named and tok.dep_ in ("nsubj", "nsubjpass") and not any(c.dep_ in ("neg", "dobj") for c in tok.head.children):
        named = [c for c in tok.head.children if c.dep_ in _NAMED_AS and _a_name(c)]
    after = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
    if not named and after is not None and after.head.i == tok.head.i and after.i != tok.head.i and _a_name(after):
        named = [after]  # ... or hang both on the verb: "My granddaughter Ivy has ..." ("granddaughter" a modifier)
    return named[0] if named else None


def _unaccented(word: str) -> str:
    """WordNet spells its words without accents ("fiance" for "fiancé")."""
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def people_named(doc) -> list:  # noqa: ANN001 - a spaCy Doc -> Tokens
    """The names that the parse places beside a person word ("my cousin Dara", "her boss is Ines"),
    whatever entity label the small recogniser gives them."""
    return [name for tok in doc if (name := _name_of(tok)) is not None]


def _an_unknown_word_as_a_name(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    """A word the tagger calls a common noun but that is capitalised mid-sentence and no English word
    WordNet knows ("my husband Iain": the small tagger knows no Iain)."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return tok.pos_ == "NOUN" and tok.is_title and not tok.is_sent_start and wordnet is not None \
        and not wordnet.knows(tok.text)


def _a_name(tok) -> bool:  # noqa: ANN001
    return tok.pos_ == "PROPN" and tok.ent_type_ not in _NOT_NAMES and tok.text[:1].isupper()


def asked_field(text: str) -> str | None:
    """The fact of these a question asks after, by the same schema read the other way: a wh-question
    whose speaker is from somewhere ("where am I from?") asks the hometown, whose speaker lives
    somewhere ("wait where do i live") the home, how old the speaker is ("how old am I?") the age, and
    who a named person is or what one of their people is called ("who is Idris?", "what's my
    partner's name?") the relations; None otherwise. Typed without capitals, a name is read as it
    would be written ("who's clara?")."""
    try:
        doc = load_parser()(as_capitalised(text))
    except ParserUnavailable:
        return None
    from interaction.offline.self_description import RESIDE

    for sent in doc.sents:
        if not any(t.tag_ in _WH for t in sent):
            # "do you remember my husband's name?" asks it without a wh-word
            if sent.text.rstrip().endswith("?") and any(_a_relations_name(t) for t in sent):
                return "relations"
            continue
        for tok in sent:
            subject = subject_of(tok) if tok.pos_ in _VERBS else None
            mine = subject is not None and first_person(subject)
            if mine and tok.lemma_ in _COMING and any(c.dep_ == "prep" and c.lower_ == "from" for c in tok.children):
                return "hometown"
            if mine and tok.lemma_.lower() in RESIDE - _MOVES and any(c.tag_ in _WH for c in tok.children):
                return "location"
            if mine and any(c.dep_ == "acomp" and any(w.tag_ in _WH for w in c.children) and c.lemma_ == "old"
                            for c in tok.children):
                return "age"
            # ... or whom one of their people is ("who is my husband?"), what one is called ("what was my
            # husband called?")
            wh = {c.lower_ for c in tok.children if c.tag_ == "WP"}
            if tok.lemma_ == "be" and wh and any(c.dep_ in ("nsubj", "attr") and (
                    c.pos_ == "PROPN" or ("who" in wh and c.pos_ == "NOUN" and _relation_owned(c))) for c in tok.children):
                return "relations"
            if tok.lemma_ == "call" and any(c.dep_ in ("nsubj", "nsubjpass") and _relation_owned(c) for c in tok.children):
                return "relations"
            if _a_relations_name(tok):
                return "relations"
    return None


def _a_relations_name(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    """"name" of one of the speaker's people: "my partner's name", or typed without the apostrophe,
    "my brothers name" (the person word a compound of the speaker's "name")."""
    if tok.pos_ != "NOUN" or tok.lemma_ != "name":
        return False
    if any(c.dep_ == "poss" and c.pos_ == "NOUN" and _relation_owned(c) for c in tok.children):
        return True
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is not None and any(c.dep_ == "poss" and first_person(c) for c in tok.children) and any(
        c.dep_ == "compound" and c.pos_ == "NOUN" and wordnet.kind_of_person(c.lemma_) for c in tok.children)


def _relation_owned(noun) -> bool:  # noqa: ANN001
    """A person word the speaker owns ("my partner")."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is not None and wordnet.kind_of_person(noun.lemma_) and any(
        c.dep_ == "poss" and first_person(c) for c in noun.children)
